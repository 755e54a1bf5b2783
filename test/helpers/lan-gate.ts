import { join } from "node:path";
import { pino } from "pino";
import { ControlGate, WriteBudget } from "../../src/control/index.js";
import { SimClock } from "../../src/simulator/clock.js";
import { type LocalSource, localControl, localSource } from "../../src/sources/index.js";
import type { Inventory } from "../../src/sources/inventory.js";
import { openStore, type Store } from "../../src/store/index.js";
import { SIM_GAP_MS } from "./simulator.js";

export interface LanGate {
  readonly source: LocalSource;
  readonly inventory: Inventory;
  readonly gate: ControlGate;
  readonly store: Store;
  readonly clock: SimClock;
  /** Closes the sessions and the store. */
  close(): void;
}

/**
 * The control gate over the LAN: a local source on the given dongle ports (the simulator's, on
 * 127.0.0.1), discovered, with localControl and a real SQLite store at `storeFile`; its sessions on
 * a clock that runs from `start`, so pacing and timeouts go on.
 */
export async function startLanGate(options: {
  readonly ports: readonly number[];
  readonly dir: string;
  readonly storeFile: string;
  readonly start: number;
}): Promise<LanGate> {
  const clock = new SimClock({ start: options.start });
  const source = localSource({
    dongles: options.ports.map((port) => ({ host: "127.0.0.1", port, passive: false, gap_ms: SIM_GAP_MS })),
    clock,
    timezone: "Europe/London",
    writes: true,
  });
  const inventory = await source.discover();
  const store = openStore(join(options.dir, options.storeFile));
  const gate = new ControlGate({
    clock,
    control: localControl({ dongleOf: (serial) => source.dongleOf(serial), answerMs: 12_000 }),
    audit: store.audit,
    devices: {
      inverter: (serial) =>
        inventory.inverters.find((one) => one.serial === serial) ?? inventory.ems.find((one) => one.serial === serial),
      charger: () => undefined,
    },
    logger: pino({ level: "silent" }),
    // As the daemon counts them: each write sent, per device and local day (the budget is not what these tests spend).
    writeBudget: new WriteBudget({
      counts: store.writeCounts,
      limit: 10_000,
      clock,
      timeZone: () => inventory.timezone,
      logger: pino({ level: "silent" }),
    }),
  });
  return {
    source,
    inventory,
    gate,
    store,
    clock,
    close() {
      source.close();
      store.close();
    },
  };
}
