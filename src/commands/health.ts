import { existsSync, readFileSync } from "node:fs";
import { duration, loadConfig } from "../config/index.js";
import { HEALTH_FILE_ENV, healthFilePath, judgeHealth } from "../health/index.js";
import { systemClock } from "../time/index.js";

const DEFAULT_MAX_AGE = "90s";
const DEFAULT_CONFIG = "config/configuration.yaml";

/**
 * `energy2mqtt health`: 0 when the daemon's status file is fresh, 1 (saying why) when it is not;
 * the image's HEALTHCHECK. The file is --file, else ENERGY2MQTT_HEALTH_FILE, else health.json
 * next to the configured store.
 */
export async function runHealthCommand(
  options: { file?: string; maxAge?: string; config?: string },
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
  env: NodeJS.ProcessEnv = process.env,
  now: () => number = () => systemClock.now(),
): Promise<number> {
  const maxAge = duration.safeParse(options.maxAge ?? DEFAULT_MAX_AGE);
  if (!maxAge.success) {
    err.write(`--max-age: "${options.maxAge}" is not a duration: use e.g. 90s or 2m\n`);
    return 2;
  }
  const file = options.file ?? env[HEALTH_FILE_ENV] ?? fromConfig(options.config, env);
  if (file === undefined) {
    err.write(`unhealthy: the store is in memory, so there is no health file; pass --file or set ${HEALTH_FILE_ENV}\n`);
    return 1;
  }
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    err.write(
      `unhealthy: no health file at ${file}: the daemon is not running, or writes it elsewhere (--file, ${HEALTH_FILE_ENV})\n`,
    );
    return 1;
  }
  const verdict = judgeHealth(text, now(), maxAge.data);
  if (verdict.healthy) {
    out.write(`${verdict.lines.join("\n")}\n`);
    return 0;
  }
  err.write(`unhealthy: ${verdict.lines.join("\n  ")}\n`);
  return 1;
}

function fromConfig(config: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  const file = config || env.ENERGY2MQTT_CONFIG || (existsSync(DEFAULT_CONFIG) ? DEFAULT_CONFIG : undefined);
  return healthFilePath(loadConfig(file, env).config.store.path, env);
}
