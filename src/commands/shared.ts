import { existsSync } from "node:fs";
import { type Config, ConfigError, loadConfig } from "../config/index.js";
import { withDemoRules } from "../demo/rules.js";
import { withDemoStore } from "../demo/store.js";
import { createLogger } from "../log/log.js";
import { loadRules, RulesError, type RulesFile, rulesPath } from "../rules/index.js";
import { openStore, type Store, StoreError } from "../store/index.js";

/** What the commands share: finding and reading the configuration, and the store it names (the cloud's client: sources/cloud/commands/client.ts). */

const DEFAULT_CONFIG = "config/configuration.yaml";

/** -c FILE, else ENERGY2MQTT_CONFIG, else config/configuration.yaml when it exists, else the embedded defaults. */
export function configFile(option: string | undefined): string | undefined {
  return option || process.env.ENERGY2MQTT_CONFIG || (existsSync(DEFAULT_CONFIG) ? DEFAULT_CONFIG : undefined);
}

/** The configuration, or exit code 2 after printing what is wrong with it. */
export function readConfig(option: string | undefined, err: NodeJS.WritableStream): Config | 2 {
  try {
    return loadConfig(configFile(option)).config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    err.write(`${error.message}\n`);
    return 2;
  }
}

/** cloud.url and cloud.token, or exit code 2 after saying why the command needs them. */
export function requireCloud(
  config: Config,
  err: NodeJS.WritableStream,
  needs: string,
): { url: string; token: string } | 2 {
  const { url, token } = config.cloud;
  if (url && token) return { url, token };
  err.write(
    `${needs} needs a configured cloud: set cloud.url and cloud.token in the configuration file (-c FILE), or ENERGY2MQTT_CLOUD_URL and ENERGY2MQTT_CLOUD_TOKEN; to try it out, run \`energy2mqtt simulate\` and point cloud.url at the URL it prints\n`,
  );
  return 2;
}

/** The store at store.path, or exit code 1 after printing the store's advice (with `context` before it). */
export function openStoreOr(config: Config, err: NodeJS.WritableStream, context = ""): Store | 1 {
  try {
    return openStore(config.store.path);
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    err.write(`${context}${error.message}\n`);
    return 1;
  }
}

/** The commands print what matters themselves; info logs would only repeat it. */
export function cliLogger(config: Config) {
  return createLogger(config.log.level === "info" ? "warn" : config.log.level, { format: config.log.format });
}

/** A rules command's configuration, its rules file and the rules in it; or what is wrong, for exit 2. */
export function readRulesInput(options: {
  readonly config?: string | undefined;
  readonly rules?: string | undefined;
}): { readonly config: Config; readonly file: string; readonly rules: RulesFile } | { readonly problem: string } {
  let config: Config;
  let file: string;
  try {
    const loaded = loadConfig(configFile(options.config));
    // No rules named anywhere and the demo house as the source: the demo's rules and store, as `run` has them.
    const demo = options.rules === undefined ? withDemoRules(loaded.config) : loaded.config;
    config = demo.rules !== loaded.config.rules ? withDemoStore(demo) : loaded.config;
    const named = options.rules ?? config.rules;
    if (!named)
      return {
        problem: "no rules file: add `rules: rules.yaml` to the configuration (relative to it), or pass --rules FILE",
      };
    file = options.rules ?? rulesPath(named, loaded.file);
  } catch (error) {
    if (error instanceof ConfigError) return { problem: error.message };
    throw error;
  }
  try {
    return { config, file, rules: loadRules(file).rules };
  } catch (error) {
    if (error instanceof RulesError) return { problem: error.message };
    throw error;
  }
}
