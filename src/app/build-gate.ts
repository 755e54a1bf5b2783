import type { EventBus } from "../bus/event-bus.js";
import type { Config } from "../config/index.js";
import { ControlGate, PauseSlots, WriteBudget } from "../control/index.js";
import type { Logger } from "../log/log.js";
import type { DeviceControl } from "../sources/index.js";
import { type AuditLog, MemoryLocalSnapshots, MemoryWriteCounts, type Store } from "../store/index.js";
import type { Inventory } from "../telemetry/index.js";
import type { Clock } from "../time/index.js";
import type { Lifecycle } from "./lifecycle.js";

/** The inverters (and EMS) and chargers the gate may change, looked up in the current inventory. */
export type DevicesById = ReturnType<typeof devicesByIdOf>;

function devicesByIdOf(inventory: () => Inventory) {
  return {
    inverter: (serial: string) =>
      inventory().inverters.find((i) => i.serial === serial) ?? inventory().ems.find((e) => e.serial === serial),
    charger: (uuid: string) => inventory().evChargers.find((c) => c.uuid === uuid),
  };
}

/**
 * The control gate every change goes through, audited and counted against the daily write budget;
 * stopped before the store closes.
 */
export function buildGate(options: {
  readonly config: Config;
  readonly control: DeviceControl;
  readonly audit: AuditLog;
  readonly store: Store | undefined;
  readonly inventory: () => Inventory;
  readonly bus: EventBus;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly life: Lifecycle;
}): { readonly gate: ControlGate; readonly devicesById: DevicesById } {
  const { config, control, audit, store, inventory, bus, logger, clock, life } = options;
  const devicesById = devicesByIdOf(inventory);
  const gate = new ControlGate({
    control,
    audit,
    devices: devicesById,
    logger,
    onApplied: (event) => bus.emit("changeApplied", event),
    clock,
    // Without a store the counts and snapshots last until the daemon stops.
    writeBudget: new WriteBudget({
      counts: store?.writeCounts ?? new MemoryWriteCounts(),
      limit: config.control.write_budget,
      clock,
      timeZone: () => inventory().timezone,
      logger,
    }),
    localSnapshots: store?.localSnapshots ?? new MemoryLocalSnapshots(),
    timeZone: () => inventory().timezone,
  });
  // The pause the daemon holds for a model without pause registers, moved at its slot's edges, and its discharge target.
  // The discharge target is checked against each inverter's latest live SoC.
  const socs = new Map<string, number>();
  life.onHalt(
    bus.on("fetched", "discharge-target", (fetched) => {
      if (fetched.kind === "inverter.live" && typeof fetched.values.battery_soc === "number")
        socs.set(fetched.serial, fetched.values.battery_soc);
    }),
  );
  const serials = () => inventory().inverters.map((inverter) => inverter.serial);
  const pauseSlots = new PauseSlots(gate, serials, clock, (serial) => socs.get(serial));
  pauseSlots.start();
  life.onHalt(() => pauseSlots.stop());
  // Before the store closes: a write still waiting for its late answer is given up and recorded.
  life.onStop(() => gate.stop());
  return { gate, devicesById };
}
