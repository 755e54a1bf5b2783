import type { EventBus } from "../bus/event-bus.js";
import type { Config } from "../config/index.js";
import type { ControlGate } from "../control/index.js";
import { type GivtcpRestFeature, givtcpRestFeature } from "../givtcp/index.js";
import type { Logger } from "../log/log.js";
import type { Inventory } from "../telemetry/index.js";

/** GivTCP's REST API for Predbat, when `givtcp_rest` is configured; undefined otherwise. */
export function buildGivtcpRest(options: {
  readonly config: Config;
  readonly gate: ControlGate;
  readonly inventory: () => Inventory;
  readonly bus: EventBus;
  readonly logger: Logger;
  readonly version: string;
}): GivtcpRestFeature | undefined {
  const { config } = options;
  if (!config.givtcp_rest) return undefined;
  return givtcpRestFeature({
    config: config.givtcp_rest,
    gate: options.gate,
    inventory: options.inventory,
    bus: options.bus,
    logger: options.logger.child({ module: "givtcp-rest" }),
    version: options.version,
  });
}
