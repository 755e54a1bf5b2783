import { StartupError, StartupStopped, startApp } from "../app/index.js";
import { startupBanner } from "../app/startup-banner.js";
import { type Config, loadConfig } from "../config/index.js";
import { createLogger, LogFeed, type Logger } from "../log/log.js";
import { type Clock, systemClock } from "../time/index.js";
import { configFile } from "./shared.js";

/**
 * The last resort: this long after SIGTERM or SIGINT the process exits whatever is still open,
 * inside the 2 s that Docker and the Supervisor are promised.
 */
export const SHUTDOWN_DEADLINE_MS = 1500;

/** `energy2mqtt run`: runs until SIGINT or SIGTERM, including one that comes while it starts. */
export async function runDaemonCommand(
  options: { config?: string; version: string },
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  const { config, file } = loadConfig(configFile(options.config));
  const feed = new LogFeed();
  const logger = createLogger(config.log.level, { format: config.log.format, feed });
  logger.info({ config: file ?? "(embedded defaults)" }, `starting energy2mqtt ${options.version}`);
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    logger.info({ signal }, "stopping");
    startWatchdog(logger, err, () => stopped);
    stop.abort();
  };
  let stopped = false;
  // Installed before anything starts: a signal during start-up stops it too.
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  let app: Awaited<ReturnType<typeof startApp>>;
  try {
    // The composition's one choice of clock: the system's, or the demo house's pinned instant.
    const clock = (await demoClock(config)) ?? systemClock;
    app = await startApp(config, logger, options.version, {
      clock,
      feed,
      ...(file ? { configFile: file } : {}),
      signal: stop.signal,
    });
  } catch (error) {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    if (error instanceof StartupStopped) {
      stopped = true;
      return 0;
    }
    if (error instanceof StartupError) {
      err.write(`energy2mqtt could not start: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
  if (!stop.signal.aborted) {
    // Set apart by blank lines, so that it stands out between the log lines.
    out.write(`\n${startupBanner(app, config.mqtt.base_topic, options.version)}\n\n`);
    await new Promise((resolve) => stop.signal.addEventListener("abort", resolve, { once: true }));
  }
  await app.stop();
  stopped = true;
  return 0;
}

/** The demo house at `demo.start`: the daemon's clock runs in real time from that instant. */
async function demoClock(config: Config): Promise<Clock | undefined> {
  if (config.cloud.url || config.demo.start === undefined) return undefined;
  const { SimClock } = await import("../simulator/index.js");
  return new SimClock({ start: config.demo.start });
}

/**
 * Exits SHUTDOWN_DEADLINE_MS after the signal if the process is still alive, naming what kept it
 * (sockets, timers): with exit code 1 if the stop itself had not finished, else 0. Unref'd, so a
 * clean stop exits at once without it.
 */
function startWatchdog(logger: Logger, err: NodeJS.WritableStream, done: () => boolean): void {
  const watchdog = setTimeout(() => {
    const open = process.getActiveResourcesInfo().filter((kind) => kind !== "TTYWrap" && kind !== "PipeWrap"); // stdio
    const finished = done();
    logger.warn({ open, stopFinished: finished }, "still running at the shutdown deadline; exiting");
    err.write(
      `energy2mqtt: ${finished ? "stopped, but" : "the stop had not finished and"} ${open.join(", ") || "nothing"} still open after ${SHUTDOWN_DEADLINE_MS} ms; exiting\n`,
    );
    process.exit(finished ? 0 : 1);
  }, SHUTDOWN_DEADLINE_MS);
  watchdog.unref();
}
