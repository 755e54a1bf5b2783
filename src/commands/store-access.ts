import { existsSync } from "node:fs";
import type { Store } from "../store/index.js";
import { openStoreOr, readConfig } from "./shared.js";

/**
 * The configuration and then the store it names, for the commands that only read the store.
 * A number is the exit code after saying what went wrong: 2 bad configuration, 1 no store.
 */
export function openConfiguredStore(option: string | undefined, err: NodeJS.WritableStream): Store | number {
  const config = readConfig(option, err);
  if (typeof config === "number") return config;
  const path = config.store.path;
  if (!existsSync(path)) {
    err.write(
      `there is no store at ${path} (store.path): \`energy2mqtt run\` or \`energy2mqtt archive\` fills it, or pass -c with the configuration that names yours\n`,
    );
    return 1;
  }
  return openStoreOr(config, err);
}
