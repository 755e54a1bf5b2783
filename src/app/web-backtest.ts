import type { Config } from "../config/index.js";
import { isDemo } from "../demo/store.js";

/**
 * The options that make `energy2mqtt backtest` read what this daemon reads: its configuration
 * file when it was given one; else its rules file and store; else (the demo house, run without a
 * configuration) none, so the CLI finds the demo's rules and store, and writes its year, itself.
 */
export function backtestArgs(config: Config, configFile: string | undefined, rulesFile: string | undefined): string[] {
  if (configFile !== undefined) return ["--config", configFile];
  if (isDemo(config) && rulesFile === undefined) return [];
  return [...(rulesFile === undefined ? [] : ["--rules", rulesFile]), "--store", config.store.path];
}
