import { EventBus } from "../bus/event-bus.js";
import type { Config } from "../config/index.js";
import { type HealthWriter, healthFilePath, startHealthWriter } from "../health/index.js";
import type { Logger } from "../log/log.js";
import type { Clock } from "../time/index.js";
import type { Lifecycle } from "./lifecycle.js";

/** The event bus the features talk through; a handler that fails is logged and the others go on. */
export function buildBus(logger: Logger): EventBus {
  return new EventBus(({ event, owner, error }) =>
    logger.error({ err: error, event, feature: owner }, "a feature failed to handle an event; the others go on"),
  );
}

/** The health file beside the store (stopped with the daemon), told of every cloud answer. */
export function startHealthFile(
  config: Config,
  logger: Logger,
  clock: Clock,
  life: Lifecycle,
  bus: EventBus,
): HealthWriter {
  const healthFile = startHealthWriter({ file: healthFilePath(config.store.path), logger, clock });
  life.onStop(async () => healthFile.stop());
  bus.on("cloudRequest", "health-file", (request) => healthFile.cloudRequest(request.status));
  return healthFile;
}
