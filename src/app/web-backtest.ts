import type { Config } from "../config/index.js";
import { DEMO_RULES_FILE } from "../demo/rules.js";
import { isDemo } from "../demo/store.js";

/**
 * The options that make `energy2mqtt backtest` read what this daemon reads: its configuration
 * file when it was given one; else its rules file and store; else (the demo house on its own
 * rules, run without a configuration) none, so the CLI finds the demo's rules and store, and
 * writes its year, itself: named, they would make it a store of the user's, with no year written.
 */
export function backtestArgs(config: Config, configFile: string | undefined, rulesFile: string | undefined): string[] {
  if (configFile !== undefined) return ["--config", configFile];
  if (isDemo(config) && (rulesFile === undefined || rulesFile === DEMO_RULES_FILE)) return [];
  return [...(rulesFile === undefined ? [] : ["--rules", rulesFile]), "--store", config.store.path];
}
