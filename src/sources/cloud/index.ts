/**
 * What the daemon does only with the cloud, the second face of sources/: the cloud's client built
 * and its token guarded, the whole account's archive (the cloud's answers made its rows, history-records.ts),
 * and `check`'s part on the cloud and the gate the commands change through. Apart from
 * sources/index.ts, whose ports every path implements, so that nothing reading those ports loads
 * the simulator, the start-up's errors or the health's types (and no import cycle runs through it).
 */
export { CloudAccess, rememberTokenWorked, tokenWorkedBefore } from "./access.js";
export * from "./archive/index.js";
export { type CloudConnection, type CloudTarget, connectCloud, NO_CLOUD, startCloud } from "./build.js";
export { checkCloud } from "./commands/check-cloud.js";
export { cliGate, describeOutcome } from "./commands/cli-gate.js";
export { cloudClient } from "./commands/client.js";
export { type CloudPath, cloudPath } from "./path.js";
