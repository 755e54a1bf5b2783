import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { readYamlFile } from "../files/yaml-file.js";
import { type Config, configSchema } from "./schema.js";

/** A configuration that cannot be used; the message names the file, line and key. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
  constructor(readonly problems: readonly string[]) {
    super(`configuration is not valid:\n  ${problems.join("\n  ")}`);
  }
}

export interface LoadedConfig {
  readonly config: Config;
  /** The file read, or undefined when running on the embedded defaults. */
  readonly file: string | undefined;
}

export const ENV_PREFIX = "ENERGY2MQTT_";

/**
 * Reads the YAML file (resolving `!secret name` from secrets.yaml beside it), applies
 * ENERGY2MQTT_<SECTION>_<KEY> overrides, and validates the result against the one schema.
 */
export function loadConfig(file: string | undefined, env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const path = file ? resolve(file) : undefined;
  if (path !== undefined && !existsSync(path)) throw new ConfigError([`${path}: file not found`]);
  if (path !== undefined && statSync(path).isDirectory()) {
    throw new ConfigError([
      `${path} is a directory; give the configuration file, e.g. ${join(path, "configuration.yaml")}`,
    ]);
  }
  const { raw, locate } = path === undefined ? { raw: {}, locate: () => path } : readYaml(path);
  const overridden = applyEnvOverrides(raw, env);
  const result = configSchema.safeParse(overridden.value);
  if (result.success) return { config: result.data, file: path };
  const problems = result.error.issues.flatMap((issue) => {
    // An unknown key is reported at its own line, one problem per key, not at its section's.
    const unknown = issue.code === "unrecognized_keys" ? (issue.keys ?? []) : [];
    const cases =
      unknown.length > 0
        ? unknown.map((name) => ({
            at: [...issue.path, name],
            message: `unknown key "${name}"; check the spelling against config/configuration.example.yaml`,
          }))
        : [{ at: issue.path, message: issue.message }];
    return cases.map(({ at, message }) => {
      const key = at.map(String).join(".");
      const fromEnv = overridden.keys.get(key);
      const where = fromEnv ? `environment ${fromEnv}` : (locate(at) ?? path ?? "defaults");
      return `${where}: ${key || "(top level)"}: ${message}`;
    });
  });
  throw new ConfigError(problems);
}

function readYaml(path: string): { raw: unknown; locate: (keyPath: readonly PropertyKey[]) => string | undefined } {
  const yaml = readYamlFile(path);
  if (yaml.errors.length > 0) throw new ConfigError(yaml.errors);
  return yaml;
}

/** ENERGY2MQTT_MQTT_URL=... sets mqtt.url; values stay text and the schema reads numbers and booleans from it. */
function applyEnvOverrides(raw: unknown, env: NodeJS.ProcessEnv): { value: unknown; keys: Map<string, string> } {
  const keys = new Map<string, string>();
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { value: raw, keys };
  const value: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const [name, text] of Object.entries(env)) {
    if (!name.startsWith(ENV_PREFIX) || !text || name === `${ENV_PREFIX}CONFIG`) continue;
    const parts = name.slice(ENV_PREFIX.length).toLowerCase();
    // A top-level key with an underscore of its own (dry_run) is not a section and a key.
    if (parts in configSchema.shape) {
      value[parts] = text;
      keys.set(parts, name);
      continue;
    }
    const [section, ...rest] = parts.split("_");
    if (!section) continue;
    const scalar = text;
    if (rest.length === 0) {
      value[section] = scalar;
      keys.set(section, name);
      continue;
    }
    const key = rest.join("_");
    const current = value[section];
    value[section] = { ...(typeof current === "object" && current !== null ? current : {}), [key]: scalar };
    keys.set(`${section}.${key}`, name);
  }
  return { value, keys };
}
