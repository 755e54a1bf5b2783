export { duration } from "../time/index.js";
export { ConfigError, ENV_PREFIX, type LoadedConfig, loadConfig } from "./load.js";
export { withMarkedBlock } from "./reference.js";
export { type Config, type ConfigInput, configSchema } from "./schema.js";
