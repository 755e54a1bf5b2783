export { duration } from "./duration.js";
export { ConfigError, ENV_PREFIX, type LoadedConfig, loadConfig } from "./load.js";
export { type Config, type ConfigInput, configSchema } from "./schema.js";
