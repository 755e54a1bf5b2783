import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { explainedSlotSchema } from "../../src/optimiser/index.js";
import { openStore } from "../../src/store/index.js";
import { eveningPeakPoints } from "../helpers/house-points.js";
import { runPlan } from "./rules-plan-run.js";

const FIXTURE = new URL("../fixtures/octopus-agile-prices.example.json", import.meta.url).pathname;
const NOW = "2026-11-22T23:00:00Z";

const OPTIMISE_RULES = [
  "timezone: Europe/London",
  "battery: { capacity_kwh: 10, charge_kw: 2.5, efficiency: 0.95 }",
  "tariffs:",
  "  import: { type: agile, file: agile.json, fallback: 0.3 }",
  "  export: { type: fixed, price: 0.15 }",
  "rules:",
  "  - name: optimiser",
  "    when: { optimise: { reserve_soc: 10 } }",
];

/** The Agile day of the fixture, the optimise rule, and two weeks of a house using 2 kW from 17:00 to 20:00 UTC. */
function setup(): string {
  const dir = mkdtempSync(join(tmpdir(), "e2m-rules-explain-"));
  copyFileSync(FIXTURE, join(dir, "agile.json"));
  writeFileSync(join(dir, "rules.yaml"), `${OPTIMISE_RULES.join("\n")}\n`);
  const store = openStore(join(dir, "e2m.db"));
  store.history.write(eveningPeakPoints({ device: "SD2024G001", until: Date.parse(NOW), days: 14, baseWatts: 250 }));
  store.close();
  const config = join(dir, "configuration.yaml");
  writeFileSync(config, `rules: rules.yaml\nstore: { path: ${join(dir, "e2m.db")} }\n`);
  return config;
}

describe("rules plan explains the optimiser's half-hours", () => {
  beforeEach(() => vi.stubEnv("ENERGY2MQTT_CONFIG", ""));
  afterEach(() => vi.unstubAllEnvs());

  it("prints a fixed-width row per half-hour with action, prices, SoC, load, solar, cost, total and reason", async () => {
    const config = setup();
    const result = await runPlan({ config, now: NOW, hours: "24", soc: "30" });
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    const lines = result.out.split("\n");
    const title = lines.indexOf("Optimiser half-hours of optimiser");
    expect(title).toBeGreaterThan(0);
    expect(lines[title + 1]).toBe(
      "  (prices, cost and total in GBP; load and solar in kWh; SoC at the half-hour's end)",
    );
    expect(lines[title + 2]).toMatch(/^ {2}time +action +import +export +SoC +load +solar +cost +total +reason$/);
    const rows = lines.slice(title + 3, title + 3 + 48);
    // 24-hour local times from 23:00 (GMT in November), one per half-hour, the columns aligned.
    expect(rows[0]?.startsWith("  2026-11-22 23:00 ")).toBe(true);
    expect(rows[47]?.startsWith("  2026-11-23 22:30 ")).toBe(true);
    expect(rows.some((row) => row.startsWith("  2026-11-23 13:00 "))).toBe(true);
    for (const row of rows) {
      expect(row).toMatch(
        /^ {2}\d{4}-\d\d-\d\d \d\d:\d\d (charge |hold {4}|self-use|export ) +-?\d+\.\d{4} +(-?\d+\.\d{4}|-) +\d+% +\d+\.\d\d +\d+\.\d\d +-?\d+\.\d{4} +-?\d+\.\d{4} {2}(charge|hold|self-use|export): /,
      );
    }
    const columns = new Set(rows.map((row) => row.search(/ {2}(charge|hold|self-use|export): /)));
    expect(columns.size, "the reason column starts at one place").toBe(1);
    // The house's 2 kW evening is served from the battery, at the day's dearest prices.
    const evening = rows.find((row) => row.startsWith("  2026-11-23 17:30 "));
    expect(evening).toMatch(/self-use: the battery serves the house's 1\.00 kWh instead of import at [\d.]+p$/);
    // A night charge names its rank before the evening peak; the rank is true of the printed prices.
    const charge = rows.find((row) => / {2}charge: [\d.-]+p is (the|among the \d+) cheapest/.test(row));
    const match =
      / {2}charge: (-?[\d.]+)p is (?:the cheapest half-hour|among the (\d+) cheapest half-hours) before the (\d\d:\d\d)( tomorrow)? peak at ([\d.]+)p$/.exec(
        charge ?? "",
      );
    expect(match, charge).not.toBeNull();
    // The import column: after two spaces, the 16-character time, the 8-character action and their spaces.
    const price = (row: string) => Number(row.slice(28, 36));
    const peakRow = rows.findIndex(
      (row, index) => index > rows.indexOf(charge as string) && row.slice(13, 18) === match?.[3],
    );
    expect(price(rows[peakRow] as string) * 100).toBeCloseTo(Number(match?.[5]), 1);
    const cheaper = rows.slice(0, peakRow).filter((row) => price(row) * 100 < Number(match?.[1]) - 0.05).length;
    expect(cheaper).toBeLessThan(Number(match?.[2] ?? 1));
  });

  it("gives the rows as JSON with --json, the same as the table's", async () => {
    const config = setup();
    const table = await runPlan({ config, now: NOW, hours: "24", soc: "30" });
    const svg = join(config, "..", "plan.svg");
    const result = await runPlan({ config, now: NOW, hours: "24", soc: "30", json: true, out: svg });
    // stdout is the JSON alone; the SVG is written all the same.
    expect(result.err).toBe(`SVG written to ${svg}\n`);
    expect(readFileSync(svg, "utf8")).toMatch(/^<svg/);
    expect(result.code).toBe(0);
    const body = JSON.parse(result.out) as {
      from: string;
      timeZone: string;
      currency: string;
      rules: { name: string; slots: unknown[] }[];
    };
    expect(body.from).toBe("2026-11-22T23:00:00.000Z");
    expect(body.timeZone).toBe("Europe/London");
    expect(body.currency).toBe("GBP");
    expect(body.rules.map((rule) => rule.name)).toEqual(["optimiser"]);
    const slots = (body.rules[0]?.slots ?? []).map((slot) => explainedSlotSchema.parse(slot));
    expect(slots).toHaveLength(48);
    expect(slots[0]?.start).toBe(Date.parse(NOW));
    // Running total, and every row's reason as the table prints it.
    let total = 0;
    for (const slot of slots) {
      total += slot.cost;
      expect(slot.runningCost).toBeCloseTo(total, 9);
      expect(table.out).toContain(`  ${slot.time} ${slot.action.padEnd(8)}`);
      expect(table.out).toContain(` ${slot.reason}\n`);
    }
    expect(slots.some((slot) => slot.action === "charge")).toBe(true);
  });

  it("prints no optimiser table for rules without an optimise trigger, and --json lists none", async () => {
    const config = setup();
    writeFileSync(
      join(config, "..", "rules.yaml"),
      `${[...OPTIMISE_RULES.slice(0, 6), "  - name: night", '    when: { cheapest: { hours: 2, before: "07:00" } }', "    do: [{ preset: pause-battery, with: { mode: 2 } }]"].join("\n")}\n`,
    );
    const text = await runPlan({ config, now: NOW, hours: "24", soc: "30" });
    expect(text.err).toBe("");
    expect(text.out).not.toContain("Optimiser half-hours");
    const json = await runPlan({ config, now: NOW, hours: "24", soc: "30", json: true });
    expect(JSON.parse(json.out).rules).toEqual([]);
  });
});
