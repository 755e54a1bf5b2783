import { StartupError, startApp } from "../app.js";
import { loadConfig } from "../config/index.js";
import { createLogger, LogFeed } from "../log.js";
import { startupBanner } from "../startup-banner.js";
import { configFile } from "./shared.js";

/** How long shutdown may take before the process exits anyway. */
const SHUTDOWN_LIMIT_MS = 2000;

/** `energy2mqtt run`: runs until SIGINT or SIGTERM. */
export async function runDaemonCommand(
  options: { config?: string; version: string },
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  const { config, file } = loadConfig(configFile(options.config));
  const feed = new LogFeed();
  const logger = createLogger(config.log.level, { format: config.log.format, feed });
  logger.info({ config: file ?? "(embedded defaults)" }, `starting energy2mqtt ${options.version}`);
  let app: Awaited<ReturnType<typeof startApp>>;
  try {
    app = await startApp(config, logger, options.version, { feed, ...(file ? { configFile: file } : {}) });
  } catch (error) {
    if (error instanceof StartupError) {
      err.write(`energy2mqtt could not start: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
  const stopped = new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      logger.info({ signal }, "stopping");
      resolve();
    };
    // Installed before anything is printed: a signal sent as soon as the banner appears must stop cleanly.
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  // Set apart by blank lines, so that it stands out between the log lines.
  out.write(`\n${startupBanner(app, config.mqtt.base_topic, options.version)}\n\n`);
  await stopped;
  const force = setTimeout(() => {
    err.write("energy2mqtt: shutdown took too long; exiting\n");
    process.exit(1);
  }, SHUTDOWN_LIMIT_MS);
  force.unref();
  await app.stop();
  clearTimeout(force);
  return 0;
}
