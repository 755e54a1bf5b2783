import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Config } from "../config/index.js";
import { isDemo } from "./store.js";

/**
 * The demo house's rules: the example rules with the optimiser, all in dry run
 * (config/rules.demo.yaml, beside dist/ and src/ alike).
 */
export const DEMO_RULES_FILE = fileURLToPath(new URL("../../config/rules.demo.yaml", import.meta.url));

/**
 * With the demo house as the source and no rules file of the user's, its own rules, so that the
 * plan, `rules plan` and the page's changes have something to show from the first start. A real
 * house (cloud.url, or source: local) runs only the rules its configuration names.
 */
export function withDemoRules(config: Config): Config {
  if (!isDemo(config) || config.rules !== undefined || !existsSync(DEMO_RULES_FILE)) return config;
  return { ...config, rules: DEMO_RULES_FILE };
}
