import { RulesEngine } from "./engine.js";
import type { RulesOptions } from "./options.js";

export type * from "../../rules-runtime/index.js";
export { RulesEngine } from "./engine.js";
export type { RulesGate, RulesOptions } from "./options.js";

/**
 * Starts the rules: restores what windows that ended while the daemon was down changed, plans
 * windows, and watches triggers. Resolves once the first plan is made and anything due now is done.
 */
export async function startRules(options: RulesOptions): Promise<RulesEngine> {
  const engine = new RulesEngine(options);
  await engine.start();
  return engine;
}
