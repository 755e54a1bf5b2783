import { openStore } from "../../src/store/index.js";
import { dayOf } from "../../src/time/index.js";
import { DEMO_EXPORT_PRICE, demoImportPrice, WEEK_ZONE } from "./known-week.js";

/*
 * The savings worked out from the store's rows alone (never the daemon's code), for the totals
 * tests: each inverter's lifetime counters' rises between two of its points half an hour or less
 * apart, in the half-hour the later one ends in (points the inverter could not read, without the
 * four counters, or whose counters fell, left out); a group of inverters' half-hours summed, priced
 * as metered and as the same load and solar with no battery, at the demo rules' prices.
 */

const HALF_HOUR = 1_800_000;

interface Slot {
  import: number;
  export: number;
  load: number;
  solar: number;
}
export type MeteredSlots = Map<string, Map<number, Slot>>;
export interface SavedDay {
  readonly actual: number;
  readonly saved: number;
}

const at = (data: unknown, ...path: string[]): number | undefined => {
  let node = data;
  for (const key of path) node = (node as Record<string, unknown> | undefined)?.[key];
  return typeof node === "number" ? node : undefined;
};

/** Each inverter's metered half-hours starting before `end` (epoch ms). */
export function meteredSlots(storePath: string, end: number): MeteredSlots {
  const store = openStore(storePath);
  const devices: MeteredSlots = new Map();
  try {
    const last = new Map<string, Slot & { at: number }>();
    for (const row of store.history.query({ kind: "inverter.point", from: 0, to: Date.UTC(2030, 0, 1) })) {
      const status = row.data.status;
      if (status === "LOST" || status === "ERROR") continue;
      const counters = {
        import: at(row.data, "total", "grid", "import"),
        export: at(row.data, "total", "grid", "export"),
        load: at(row.data, "total", "consumption"),
        solar: at(row.data, "total", "solar"),
      };
      if (Object.values(counters).some((value) => value === undefined)) continue;
      const now = {
        at: row.at,
        import: counters.import ?? 0,
        export: counters.export ?? 0,
        load: counters.load ?? 0,
        solar: counters.solar ?? 0,
      };
      const before = last.get(row.device);
      last.set(row.device, now);
      if (!before || now.at - before.at > HALF_HOUR) continue;
      const start = Math.floor((now.at - 1) / HALF_HOUR) * HALF_HOUR;
      if (start >= end) continue;
      const rise = {
        import: now.import - before.import,
        export: now.export - before.export,
        load: now.load - before.load,
        solar: now.solar - before.solar,
      };
      if (Object.values(rise).some((value) => value < 0)) continue;
      const slots = devices.get(row.device) ?? new Map<number, Slot>();
      const slot = slots.get(start) ?? { import: 0, export: 0, load: 0, solar: 0 };
      slot.import += rise.import;
      slot.export += rise.export;
      slot.load += rise.load;
      slot.solar += rise.solar;
      slots.set(start, slot);
      devices.set(row.device, slots);
    }
  } finally {
    store.close();
  }
  return devices;
}

/** A group of inverters' days (YYYY-MM-DD): their metered cost, and their saving against no battery. */
export function savedDays(slots: MeteredSlots, members: readonly string[]): Map<string, SavedDay> {
  const summed = new Map<number, Slot>();
  for (const device of members)
    for (const [start, one] of slots.get(device) ?? []) {
      const slot = summed.get(start) ?? { import: 0, export: 0, load: 0, solar: 0 };
      slot.import += one.import;
      slot.export += one.export;
      slot.load += one.load;
      slot.solar += one.solar;
      summed.set(start, slot);
    }
  const days = new Map<string, { actual: number; none: number }>();
  for (const [start, slot] of summed) {
    const day = dayOf(start, WEEK_ZONE);
    const sum = days.get(day) ?? { actual: 0, none: 0 };
    const price = demoImportPrice(start);
    const grid = slot.load - slot.solar;
    sum.actual += slot.import * price - slot.export * DEMO_EXPORT_PRICE;
    sum.none += Math.max(0, grid) * price - Math.max(0, -grid) * DEMO_EXPORT_PRICE;
    days.set(day, sum);
  }
  return new Map([...days].map(([day, sum]) => [day, { actual: sum.actual, saved: sum.none - sum.actual }]));
}

/** A month's (YYYY-MM) days summed. */
export function monthOf(days: ReadonlyMap<string, SavedDay>, month: string): SavedDay & { days: number } {
  const inMonth = [...days].filter(([day]) => day.startsWith(month));
  return {
    actual: inMonth.reduce((sum, [, one]) => sum + one.actual, 0),
    saved: inMonth.reduce((sum, [, one]) => sum + one.saved, 0),
    days: inMonth.length,
  };
}
