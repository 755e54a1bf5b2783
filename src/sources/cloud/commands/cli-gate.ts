import type { CloudClient } from "../../../cloud/index.js";
import type { Config } from "../../../config/index.js";
import { type ChangeOutcome, ControlGate } from "../../../control/index.js";
import type { Logger } from "../../../log/log.js";
import type { Store } from "../../../store/index.js";
import type { Inventory } from "../../../telemetry/index.js";
import { systemClock } from "../../../time/index.js";
import { cloudControl } from "../../index.js";

/**
 * The control gate as the commands use it: the account's devices as discovered, the store's
 * audit log, and the logger quieter than info (the command prints the outcome itself, and the
 * gate's own line about it would repeat it).
 */
export function cliGate(config: Config, client: CloudClient, store: Store, inventory: Inventory, logger: Logger) {
  return new ControlGate({
    clock: systemClock,
    control: cloudControl(client),
    audit: store.audit,
    devices: {
      inverter: (serial) => inventory.inverters.find((i) => i.serial === serial),
      charger: (uuid) => inventory.evChargers.find((c) => c.uuid === uuid),
    },
    logger: config.log.level === "info" || config.log.level === "warn" ? logger.child({}, { level: "error" }) : logger,
  });
}

/** A change's outcome as the commands print it: the message, then its flags. */
export function describeOutcome(outcome: ChangeOutcome): string {
  const flags = [
    `ok: ${outcome.ok}`,
    `code: ${outcome.code ?? "-"}`,
    `verified: ${outcome.verified}`,
    `skipped: ${outcome.skipped}`,
  ];
  return `${outcome.message}\n${flags.join("  ")}\n`;
}
