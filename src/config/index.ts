export { duration } from "../time/duration.js";
export { ConfigError, ENV_PREFIX, type LoadedConfig, loadConfig } from "./load.js";
export { type Config, type ConfigInput, configSchema } from "./schema.js";
