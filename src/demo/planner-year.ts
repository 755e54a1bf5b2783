import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { HalfHourSeries } from "../backtest/series.js";
import { SLOT_MS } from "../time/index.js";

/**
 * The repository's own copy of the planner-year data (2023, half-hourly), relative to the
 * repository root; its README names every source. The bench and the demo house's year read it.
 */
export const DATA_DIR = "test/fixtures/planner-year";
export const YEAR_START = Date.UTC(2023, 0, 1);
/** The prices' clock: Agile's days run 23:00 to 23:00 UK time. */
export const YEAR_TIME_ZONE = "Europe/London";
export const SLOTS = 365 * 48;
const DAY_SLOTS = 48;

/** The sources, as the data's README gives them; printed with every result. */
export const SOURCES: readonly string[] = [
  "Agile import, region J (South Eastern England), 2023, p/kWh incl. VAT: wyvernp/agile_predictor sample_data/csv_agile_J_South_Eastern_England.csv (commit 856fc179), the energy-stats.uk export",
  "Agile Outgoing export, region C (London), 2023: hramzan01/project_market notebooks/data/csv_agileoutgoing_C_London.csv (commit 55487204)",
  "Load: Low Carbon London smart-meter trial household MAC000060, 2013 (UK Power Networks, London Datastore): AnatolyPavlov/smart-battery-for-smart-energy-usage clean_data/MAC000060.csv (commit 01dd972e)",
  "Solar: Ausgrid Solar Home data, customer 12 (1.04 kWp, Sydney), 2011-07 to 2012-06: pierre-haessig/solarhome-control-bench data/data_2011-2012.csv",
];

export const PV_KWP = 4.8;
/** kWh per kWp per year a south-facing London roof makes; the Sydney series is scaled to it. */
export const UK_YIELD_KWH_PER_KWP = 950;

/** The year's half-hours (UTC half-hours of 2023, prices on UK time) and how the solar was scaled. */
export interface Year extends HalfHourSeries {
  /** The factor the 1.04 kWp Sydney kW series is multiplied by to give the house's kWh per half-hour. */
  readonly pvFactor: number;
  readonly sydneyYieldKwhPerKwp: number;
}

function readSeries(root: string, file: string): { time: number; value: number }[] {
  const path = join(root, DATA_DIR, file);
  if (!existsSync(path)) {
    throw new Error(
      `planner-year: ${path} is missing. The benchmark reads the year's CSVs from ${DATA_DIR} (relative to the repository root); see its README.md`,
    );
  }
  const rows = readFileSync(path, "utf8").trim().split("\n").slice(1);
  return rows.map((row, index) => {
    const [time, value] = row.split(",");
    const parsed = { time: Date.parse(time ?? ""), value: Number(value) };
    if (!Number.isFinite(parsed.time) || !Number.isFinite(parsed.value)) {
      throw new Error(`planner-year: ${file} row ${index + 2} is not "time_utc,value": ${row}`);
    }
    return parsed;
  });
}

/** The 2023 series, one per slot from 2023-01-01 00:00 UTC; throws when one is short or out of step. */
function on2023(file: string, series: readonly { time: number; value: number }[]): number[] {
  const out: number[] = [];
  for (let slot = 0; slot < SLOTS; slot++) {
    const row = series[slot];
    if (!row || row.time !== YEAR_START + slot * SLOT_MS) {
      throw new Error(`planner-year: ${file} has no value for ${new Date(YEAR_START + slot * SLOT_MS).toISOString()}`);
    }
    out.push(row.value);
  }
  return out;
}

/**
 * The year as the benchmark pairs it: prices as published (pence to GBP); the 2013 load placed
 * on 2023 by day of year and UTC half-hour (neither year is a leap year); the Sydney solar
 * shifted by half a year (its day n from 1 July 2011 becomes day n of 2023, so midwinter meets
 * midwinter) keeping its local clock time (AEST, whose noon is near solar noon, as London's GMT
 * noon is), and scaled to 4.8 kWp at a UK yield. The Sydney year holds 29 Feb 2012, so its last
 * day (30 June 2012) is unused.
 */
export function loadYear(root: string): Year {
  const importPrice = on2023("agile_import_J_2023.csv", readSeries(root, "agile_import_J_2023.csv")).map(
    (pence) => pence / 100,
  );
  const exportPrice = on2023("agile_outgoing_C_2023.csv", readSeries(root, "agile_outgoing_C_2023.csv")).map(
    (pence) => pence / 100,
  );
  const load2013 = readSeries(root, "load_LCL_MAC000060_2013_kwh_per_hh.csv");
  const load: number[] = [];
  const loadStart = Date.UTC(2013, 0, 1);
  for (let slot = 0; slot < SLOTS; slot++) {
    const row = load2013[slot];
    if (!row || row.time !== loadStart + slot * SLOT_MS)
      throw new Error("planner-year: the 2013 load is not one row per half-hour");
    load.push(row.value);
  }
  const pvRows = readSeries(root, "pv_ausgrid_cust12_2011-07_2012-06_kw.csv");
  // 2011-07-01 00:00 AEST (UTC+10) is the first row.
  const pvStart = Date.UTC(2011, 5, 30, 14);
  const rawKwh: number[] = [];
  for (let slot = 0; slot < SLOTS; slot++) {
    const row = pvRows[slot];
    if (!row || row.time !== pvStart + slot * SLOT_MS)
      throw new Error("planner-year: the solar series is not one row per half-hour");
    rawKwh.push(Math.max(0, row.value) / 2);
  }
  const sydneyYieldKwhPerKwp = rawKwh.reduce((sum, kwh) => sum + kwh, 0) / 1.04;
  const pvFactor = (PV_KWP / 1.04) * (UK_YIELD_KWH_PER_KWP / sydneyYieldKwhPerKwp);
  const solar = rawKwh.map((kwh) => kwh * pvFactor);
  const starts = Array.from({ length: SLOTS }, (_, slot) => YEAR_START + slot * SLOT_MS);
  return { starts, importPrice, exportPrice, load, solar, timeZone: YEAR_TIME_ZONE, pvFactor, sydneyYieldKwhPerKwp };
}

export { DAY_SLOTS };
