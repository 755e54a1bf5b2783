import { existsSync } from "node:fs";
import { type Config, ConfigError, loadConfig } from "../config/index.js";
import { openStore, type Store, StoreError } from "../store/index.js";
import { configFile } from "./check.js";

/**
 * The configuration and then the store it names, for the commands that only read the store.
 * A number is the exit code after saying what went wrong: 2 bad configuration, 1 no store.
 */
export function openConfiguredStore(option: string | undefined, err: NodeJS.WritableStream): Store | number {
  let config: Config;
  try {
    config = loadConfig(configFile(option)).config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    err.write(`${error.message}\n`);
    return 2;
  }
  const path = config.store.path;
  if (!existsSync(path)) {
    err.write(
      `there is no store at ${path} (store.path): \`energy2mqtt run\` or \`energy2mqtt archive\` fills it, or pass -c with the configuration that names yours\n`,
    );
    return 1;
  }
  try {
    return openStore(path);
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    err.write(`${error.message}\n`);
    return 1;
  }
}
