import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Year } from "../../bench/planner-year/data.js";
import { openStore } from "../../src/store/index.js";

const SLOT_MS = 30 * 60_000;

/**
 * The planner-year fixture's half-hours [first, last) written into a store file as the daemon
 * keeps them: an inverter.point at each half-hour's end with the lifetime counters (solar,
 * consumption, grid import and export: the house with no battery), the first at `first`'s start
 * with the battery at 50%; and the import and export prices as published.
 */
export function writeYearToStore(year: Year, first: number, last: number, path: string): void {
  const store = openStore(path);
  try {
    const totals = { solar: 1000, consumption: 2000, import: 3000, export: 4000 };
    const point = (at: number) => ({
      kind: "inverter.point" as const,
      device: "SA2114G123",
      at,
      key: "",
      data: {
        status: "NORMAL",
        power: { battery: { percent: 50 } },
        total: {
          solar: totals.solar,
          consumption: totals.consumption,
          grid: { import: totals.import, export: totals.export },
        },
      },
    });
    const records = [point(year.starts[first] as number)];
    const prices = [];
    for (let t = first; t < last; t++) {
      const load = year.load[t] as number;
      const solar = year.solar[t] as number;
      totals.solar += solar;
      totals.consumption += load;
      totals.import += Math.max(0, load - solar);
      totals.export += Math.max(0, solar - load);
      const start = year.starts[t] as number;
      records.push(point(start + SLOT_MS));
      prices.push({ side: "import" as const, start, end: start + SLOT_MS, price: year.importPrice[t] as number });
      prices.push({ side: "export" as const, start, end: start + SLOT_MS, price: year.exportPrice[t] as number });
    }
    store.history.write(records);
    store.publishedPrices.save(prices);
  } finally {
    store.close();
  }
}

/** A house folder: rules.yaml (Agile prices from an empty file: the store's are the published ones), configuration.yaml naming the store. */
export function backtestHouse(home: string, rulesLines: readonly string[]): { config: string; store: string } {
  mkdirSync(home, { recursive: true });
  const store = join(home, "e2m.db");
  const config = join(home, "configuration.yaml");
  writeFileSync(join(home, "empty-agile.json"), JSON.stringify({ results: [] }));
  writeFileSync(join(home, "rules.yaml"), `${rulesLines.join("\n")}\n`);
  writeFileSync(config, `rules: rules.yaml\nstore: { path: ${store} }\n`);
  return { config, store };
}

/** The bench's 9.5 kWh battery and its optimise rule's settings, as a rules file says them. */
export const BENCH_RULES: readonly string[] = [
  "timezone: Europe/London",
  "battery: { capacity_kwh: 9.5, charge_kw: 3, efficiency: 0.95 }",
  "tariffs:",
  "  import: { type: agile, file: empty-agile.json }",
  "  export: { type: agile, file: empty-agile.json }",
  "rules:",
  "  - name: optimiser",
  "    when: { optimise: { discharge_kw: 3, discharge_efficiency: 0.95, reserve_soc: 4, export_limit_kw: 5, change_cost: 0.002 } }",
];
