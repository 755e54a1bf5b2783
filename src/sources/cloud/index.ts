/**
 * What the daemon does only with the cloud, the second face of sources/: the cloud's client built
 * and its token guarded. Apart from sources/index.ts, whose ports every path implements, so that
 * nothing reading those ports loads the simulator, the start-up's errors or the health's types.
 */
export { CloudAccess, rememberTokenWorked, tokenWorkedBefore } from "./access.js";
export { type CloudConnection, type CloudTarget, connectCloud, NO_CLOUD, startCloud } from "./build.js";
