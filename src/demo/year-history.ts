import { existsSync } from "node:fs";
import { join } from "node:path";
import { ecoOnly, simulateSteps } from "../backtest/simulate.js";
import type { Battery } from "../optimiser/index.js";
import type { HistoryRecord, Store } from "../store/index.js";
import { addDays, dayOf, dayStartMs, SLOT_MS } from "../time/index.js";
import { DATA_DIR, loadYear, SLOTS, SOURCES } from "./planner-year.js";

/*
 * The demo house's year of history before the simulator's own days, so that the backtest and the
 * History page have a year to show at once. The half-hours are the planner-year data's (real
 * published series; see SOURCES and the README of test/fixtures/planner-year): its load and solar,
 * placed on the same day of the year, with the demo's battery in eco (self-consumption) making
 * the metered import, export and SoC. Prices are not written: the demo's own tariff prices them.
 */

export const DEMO_YEAR_DAYS = 365;
export const DEMO_YEAR_SOURCES = SOURCES;

/** The demo battery the year is metered with: the bench's 9.5 kWh, in eco. */
const DEMO_BATTERY: Battery = {
  capacityKwh: 9.5,
  chargeKw: 3,
  dischargeKw: 3,
  chargeEfficiency: 0.95,
  dischargeEfficiency: 0.95,
  reservePercent: 4,
  exportLimitKw: 5,
};
/** The demo house's first inverter (src/simulator/scenario/builtin.ts: 4.8 kWp, 9.5 kWh, the planner-year house's). */
export const DEMO_YEAR_INVERTER = "SD2024G001";

/** Half-hours written per transaction; the daemon's event loop runs between them. */
const CHUNK_SLOTS = 31 * 48;

export interface DemoYearOptions {
  readonly now: number;
  readonly timeZone: string;
  /** The inverter the year is metered by: the demo house's first. */
  readonly device: string;
  /** The days the simulator itself has before now: the year ends where they begin. */
  readonly simulatedDays: number;
  /** The repository root, where the data folder is. */
  readonly root: string;
  /** Stops between chunks when it turns true (the daemon stopping). */
  readonly stopped?: () => boolean;
}

export type DemoYearSeed =
  | { readonly seeded: true; readonly points: number; readonly from: number; readonly to: number }
  | { readonly seeded: false; readonly reason: string };

/** Writes the year into the store's history unless it is there already. */
export async function seedDemoYear(store: Pick<Store, "history">, options: DemoYearOptions): Promise<DemoYearSeed> {
  if (!existsSync(join(options.root, DATA_DIR)))
    return { seeded: false, reason: `${DATA_DIR} is not in this installation` };
  const to = dayStartMs(addDays(dayOf(options.now, options.timeZone), -options.simulatedDays), options.timeZone);
  // The last half-hour is left out, so that its end point never meets the simulator's first.
  const from = to - DEMO_YEAR_DAYS * 48 * SLOT_MS;
  const slots = DEMO_YEAR_DAYS * 48 - 1;
  const first = store.history.query({ kind: "inverter.point", device: options.device, from, to: from + 1 });
  if (!first.next().done) return { seeded: false, reason: "the store has it already" };
  const year = loadYear(options.root);
  // The same day of the year: the seasons meet (2023 has no 29 February; a leap year's last day repeats the first).
  const offset = Math.round((from - Date.UTC(new Date(from).getUTCFullYear(), 0, 1)) / SLOT_MS);
  const index = (t: number) => (offset + t) % SLOTS;
  const series = {
    starts: Array.from({ length: slots }, (_, t) => from + t * SLOT_MS),
    load: Array.from({ length: slots }, (_, t) => year.load[index(t)] as number),
    solar: Array.from({ length: slots }, (_, t) => year.solar[index(t)] as number),
    importPrice: new Array<number>(slots).fill(0),
    exportPrice: new Array<number>(slots).fill(0),
    timeZone: options.timeZone,
  };
  const totals = { solar: 0, consumption: 0, import: 0, export: 0 };
  const point = (at: number, socKwh: number): HistoryRecord => ({
    kind: "inverter.point",
    device: options.device,
    at,
    key: "",
    data: {
      status: "NORMAL",
      power: { battery: { percent: Math.round((socKwh / DEMO_BATTERY.capacityKwh) * 1000) / 10 } },
      total: {
        solar: round(totals.solar),
        consumption: round(totals.consumption),
        grid: { import: round(totals.import), export: round(totals.export) },
      },
    },
  });
  const start = 0.5 * DEMO_BATTERY.capacityKwh;
  const records: HistoryRecord[] = [point(from, start)];
  simulateSteps(
    series,
    DEMO_BATTERY,
    start,
    (t, soc, mode) => ({ action: ecoOnly(t, soc, mode), extraKwh: 0 }),
    ({ t, load, solar, energy }) => {
      totals.solar += solar;
      totals.consumption += load;
      totals.import += energy.importKwh;
      totals.export += energy.exportKwh;
      records.push(point(from + (t + 1) * SLOT_MS, energy.socKwh));
    },
  );
  for (let at = 0; at < records.length; at += CHUNK_SLOTS) {
    if (options.stopped?.()) return { seeded: false, reason: "stopped" };
    store.history.write(records.slice(at, at + CHUNK_SLOTS));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { seeded: true, points: records.length, from, to: from + slots * SLOT_MS };
}

/** Counters to the watt-hour: what a meter shows. */
const round = (kwh: number) => Math.round(kwh * 1000) / 1000;
