import type { History, JsonValue } from "../store/index.js";
import { FLOW_TYPES } from "../store/index.js";
import type { DailyEnergy, HistoryColumns, HistoryDevice } from "./api-types.js";

const SERIES = ["solar", "battery", "grid", "home", "soc"] as const;
type Series = (typeof SERIES)[number];

const at = (value: JsonValue | undefined, ...path: string[]): number | null => {
  let node: JsonValue | undefined = value;
  for (const key of path) {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return null;
    node = node[key];
  }
  return typeof node === "number" && Number.isFinite(node) ? node : null;
};

/** The inverters with 5-minute points, and their range. */
export function historyDevices(history: History): HistoryDevice[] {
  return history
    .summary()
    .filter((row) => row.kind === "inverter.point")
    .map(({ device, first, last, count }) => ({ device, first, last, count }));
}

type Row = { t: number; values: Record<Series, number | null> };

const FIVE_MINUTES = 300;

function rowsOf(history: History, device: string, from: number, to: number): Row[] {
  const rows: Row[] = [];
  for (const record of history.query({ kind: "inverter.point", device, from, to })) {
    const power = record.data.power;
    rows.push({
      t: Math.floor(record.at / 1000),
      values: {
        solar: at(power, "solar", "power"),
        battery: at(power, "battery", "power"),
        // Positive exporting, as the cloud counts it and as the MQTT grid entity publishes it.
        grid: at(power, "grid", "power"),
        home: at(power, "consumption", "power"),
        soc: at(power, "battery", "percent"),
      },
    });
  }
  return rows;
}

/**
 * Several inverters' points as one: each 5-minute slot's powers summed over the inverters with a
 * point in it, their SoCs averaged (a plant's or the house's state of charge, batteries unweighted).
 */
function summedRows(perDevice: readonly Row[][]): Row[] {
  const slots = new Map<number, { sums: Record<Series, number | null>; socs: number[] }>();
  for (const rows of perDevice)
    for (const row of rows) {
      const t = Math.floor(row.t / FIVE_MINUTES) * FIVE_MINUTES;
      const slot = slots.get(t) ?? {
        sums: { solar: null, battery: null, grid: null, home: null, soc: null },
        socs: [],
      };
      for (const name of SERIES) {
        const value = row.values[name];
        if (value === null) continue;
        if (name === "soc") slot.socs.push(value);
        else slot.sums[name] = (slot.sums[name] ?? 0) + value;
      }
      slots.set(t, slot);
    }
  return [...slots]
    .sort(([a], [b]) => a - b)
    .map(([t, { sums, socs }]) => ({
      t,
      values: { ...sums, soc: socs.length ? socs.reduce((a, b) => a + b, 0) / socs.length : null },
    }));
}

/**
 * A scope's points as columns: one inverter's as stored, several inverters' summed per 5 minutes.
 * Beyond `width` pixels' worth (two points a pixel), points are averaged into equal buckets, so a
 * year costs what the screen can show and a day stays exact.
 */
export function powerColumns(
  history: History,
  query: { device: string; members: readonly string[]; from: number; to: number; width: number },
): HistoryColumns {
  const perDevice = query.members.map((device) => rowsOf(history, device, query.from, query.to));
  const rows = perDevice.length === 1 ? (perDevice[0] ?? []) : summedRows(perDevice);
  const limit = Math.max(2, Math.floor(query.width) * 2);
  const empty = (): Record<Series, (number | null)[]> => ({ solar: [], battery: [], grid: [], home: [], soc: [] });
  const columns = empty();
  const time: number[] = [];
  let bucketSeconds: number | null = null;
  if (rows.length <= limit) {
    for (const row of rows) {
      time.push(row.t);
      for (const name of SERIES) columns[name].push(row.values[name]);
    }
  } else {
    const first = rows[0]?.t ?? 0;
    const last = rows[rows.length - 1]?.t ?? 0;
    bucketSeconds = Math.max(300, Math.ceil((last - first + 1) / limit));
    let index = 0;
    while (index < rows.length) {
      const bucket = Math.floor(((rows[index]?.t ?? 0) - first) / bucketSeconds);
      const sums: Record<Series, { total: number; n: number }> = {
        solar: { total: 0, n: 0 },
        battery: { total: 0, n: 0 },
        grid: { total: 0, n: 0 },
        home: { total: 0, n: 0 },
        soc: { total: 0, n: 0 },
      };
      let row = rows[index];
      while (row && Math.floor((row.t - first) / bucketSeconds) === bucket) {
        for (const name of SERIES) {
          const value = row.values[name];
          if (value !== null) {
            sums[name].total += value;
            sums[name].n += 1;
          }
        }
        index += 1;
        row = rows[index];
      }
      time.push(first + bucket * bucketSeconds);
      for (const name of SERIES) {
        const { total, n } = sums[name];
        columns[name].push(n === 0 ? null : Math.round((total / n) * 10) / 10);
      }
    }
  }
  return { device: query.device, from: query.from, to: query.to, points: rows.length, bucketSeconds, time, ...columns };
}

/** Import and export price per kWh at an instant, as the tariffs know them. */
export type PricesAt = (at: number) => {
  readonly import?: number;
  readonly export?: number;
  readonly currency: string;
};

const IMPORTS = ["3", "4"] as const;
const EXPORTS = ["2", "6"] as const;
const HALF_HOURS_A_DAY = 48;

const sumOf = (data: Readonly<Record<string, JsonValue>>, keys: readonly string[]): number | null => {
  let total = 0;
  for (const key of keys) {
    const value = data[key];
    if (typeof value !== "number") return null;
    total += value;
  }
  return total;
};

/** One inverter's days: a scope's days before it is named. */
export type InverterDays = Omit<DailyEnergy, "scope" | "inverters">;

/**
 * Energy per day (kWh) by flow, from the daily flow records; import and export per day; and the
 * day's cost: each half-hour's import and export at that half-hour's prices, for a day whose 48
 * half-hourly flows and prices are all known (else null rather than a guess).
 */
export function dailyEnergy(
  history: History,
  query: { device: string; from: number; to: number },
  prices?: PricesAt,
): InverterDays {
  const time: number[] = [];
  const flows: Record<string, (number | null)[]> = Object.fromEntries(
    Object.values(FLOW_TYPES).map((name) => [name, []]),
  );
  const importKwh: (number | null)[] = [];
  const exportKwh: (number | null)[] = [];
  const starts: number[] = [];
  for (const record of history.query({ kind: "flow.day", device: query.device, from: query.from, to: query.to })) {
    time.push(Math.floor(record.at / 1000));
    starts.push(record.at);
    for (const [key, name] of Object.entries(FLOW_TYPES)) {
      const value = record.data[key];
      flows[name]?.push(typeof value === "number" ? value : null);
    }
    importKwh.push(sumOf(record.data, IMPORTS));
    exportKwh.push(sumOf(record.data, EXPORTS));
  }
  const cost = prices ? dailyCost(history, query, starts, prices) : starts.map(() => null);
  const currency = prices ? prices(query.to).currency || null : null;
  return { device: query.device, time, flows, importKwh, exportKwh, cost, currency, timeZone: null, savings: null };
}

function dailyCost(
  history: History,
  query: { device: string; from: number; to: number },
  starts: readonly number[],
  prices: PricesAt,
): (number | null)[] {
  const days = starts.map(() => ({ cost: 0, halfHours: 0, priced: true }));
  // Day records start at local midnight, in order: each half-hour belongs to the last day begun.
  let day = -1;
  for (const record of history.query({
    kind: "flow.half_hour",
    device: query.device,
    from: starts[0] ?? query.from,
    to: query.to,
  })) {
    while (day + 1 < starts.length && (starts[day + 1] ?? Number.POSITIVE_INFINITY) <= record.at) day += 1;
    const totals = days[day];
    if (!totals) continue;
    const price = prices(record.at);
    const bought = sumOf(record.data, IMPORTS);
    const sold = sumOf(record.data, EXPORTS);
    if (price.import === undefined || price.export === undefined || bought === null || sold === null) {
      totals.priced = false;
      continue;
    }
    totals.cost += bought * price.import - sold * price.export;
    totals.halfHours += 1;
  }
  return days.map((totals) =>
    totals.priced && totals.halfHours >= HALF_HOURS_A_DAY - 2 ? Math.round(totals.cost * 100) / 100 : null,
  );
}
