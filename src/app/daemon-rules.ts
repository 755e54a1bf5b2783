import type { Config } from "../config/index.js";
// Only types at the top: the rules are loaded when a configuration names them. The rules
// themselves run as a feature (rules/feature.ts); here is what stops start-up before they do.
import type { LoadedRules } from "../rules/index.js";
import type { Inventory } from "../telemetry/index.js";
import { StartupError } from "./errors.js";

/**
 * The rules file the configuration names, read and checked before anything starts: a bad one
 * stops start-up (exit 2) with its problems by line.
 */
export async function loadDaemonRules(
  config: Config,
  configFile: string | undefined,
): Promise<LoadedRules | undefined> {
  if (!config.rules) return undefined;
  const { loadRules, RulesError, rulesPath } = await import("../rules/index.js");
  try {
    return loadRules(rulesPath(config.rules, configFile));
  } catch (error) {
    if (error instanceof RulesError) throw new StartupError(error.message, 2);
    throw error;
  }
}

/**
 * The rules against the devices just discovered, as `check` makes it: a value a device refuses
 * stops start-up (exit 2) with `check`'s own message, not at the hour the rule first runs.
 */
export async function checkDaemonRulesOnDevices(loaded: LoadedRules | undefined, inventory: Inventory): Promise<void> {
  if (!loaded) return;
  const { refuseRulesNotFitting, RulesError } = await import("../rules/index.js");
  try {
    refuseRulesNotFitting(loaded, inventory);
  } catch (error) {
    if (error instanceof RulesError) throw new StartupError(error.message, 2);
    throw error;
  }
}
