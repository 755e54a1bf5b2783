import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runRulesSavingsCommand } from "../../src/commands/rules-savings.js";
import { openStore } from "../../src/store/index.js";
import { VirtualClock } from "../../src/time/index.js";
import { capture } from "../helpers/capture.js";
import { DAY, knownDays } from "../rules/savings-days.js";

const dir = mkdtempSync(join(tmpdir(), "e2m-rules-savings-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RULES = [
  "timezone: Europe/London",
  "battery: { capacity_kwh: 10, charge_kw: 3, efficiency: 1 }",
  "tariffs:",
  '  import: { type: zones, price: 0.3, zones: [{ price: 0.1, hours: "00:00-04:00" }] }',
  "  export: { type: fixed, price: 0.15 }",
  "rules: []",
];

function setup(name: string, withStore = true, rules: readonly string[] = RULES): string {
  const home = join(dir, name);
  const store = join(home, "e2m.db");
  const config = join(home, "configuration.yaml");
  mkdirSync(home);
  writeFileSync(join(home, "rules.yaml"), `${rules.join("\n")}\n`);
  copyFileSync(
    new URL("../fixtures/octopus-agile-prices.example.json", import.meta.url).pathname,
    join(home, "agile.json"),
  );
  writeFileSync(config, `rules: rules.yaml\nstore: { path: ${store} }\n`);
  if (withStore) {
    const opened = openStore(store);
    opened.history.write(knownDays(1));
    opened.close();
  }
  return config;
}

// 20 January 2026, 12:00 UTC: "today" for the defaults, never the wall clock's.
const clock = new VirtualClock(Date.UTC(2026, 0, 20, 12));

async function savings(options: Parameters<typeof runRulesSavingsCommand>[0]) {
  const out = capture();
  const err = capture();
  const code = await runRulesSavingsCommand(options, out.stream, err.stream, clock);
  return { code, out: out.text(), err: err.text() };
}

describe("energy2mqtt rules savings", () => {
  beforeEach(() => vi.stubEnv("ENERGY2MQTT_CONFIG", ""));
  afterEach(() => vi.unstubAllEnvs());

  it("prints each day and the month's total from the store, the month so far by default", async () => {
    const config = setup("table");
    const result = await savings({ config });
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    const lines = result.out.split("\n");
    expect(lines[0]).toContain("The house's savings 2026-01-01 to 2026-01-20 (Europe/London), in GBP");
    expect(lines[0]).toContain("10 kWh from rules.yaml");
    expect(lines[1]).toMatch(
      /^day +half-hours +SoC +actual +no battery +eco only +saved vs none +saved vs eco +prices$/,
    );
    // Actual: 20 kWh at 0.10 less 8 kWh at 0.15 = 0.80. No battery: 4 kWh at 0.10, 16 at 0.30, less
    // 8 kWh exported at 0.15 = 4.00. Eco only, with the planner's 4% reserve and 95% discharge: the
    // night gets (2.0 - 0.4) x 0.95 = 1.52 kWh from the battery, so 2.48 kWh at 0.10 (0.248); 6 kWh
    // at 0.30 until 10:00 (1.80); the sun stores 8 kWh (8.4 in all), of which (8.4 - 0.4) x 0.95 =
    // 7.6 come out, so 2.4 of the evening's 10 kWh at 0.30 (0.72): 2.768.
    const published = ["0.80", "4.00", "2.77", "3.20", "1.97", "published"];
    expect(lines[2]?.split(/ +/)).toEqual(["2026-01-14", "48/48", "20%", ...published]);
    expect(lines[3]?.split(/ +/)).toEqual(["2026-01", "total", "1", "day", ...published]);
  });

  it("prints JSON with the unrounded figures", async () => {
    const config = setup("json");
    const result = await savings({ config, from: "2026-01-14", to: "2026-01-14", json: true });
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.out) as {
      currency: string;
      days: { day: string; ecoOnly: number; savedVsEcoOnly: number }[];
      months: { month: string; savedVsNoBattery: number }[];
    };
    expect(parsed.currency).toBe("GBP");
    expect(parsed.days[0]?.ecoOnly).toBeCloseTo(2.768, 9);
    expect(parsed.days[0]?.savedVsEcoOnly).toBeCloseTo(1.968, 9);
    expect(parsed.months[0]).toMatchObject({ month: "2026-01" });
    expect(parsed.months[0]?.savedVsNoBattery).toBeCloseTo(3.2, 9);
  });

  it("says which half-hours were priced with the tariff's fallback rather than a published price", async () => {
    // The Agile file holds 22-23 November 2026 only: 14 January is priced with the fallback.
    const agile = RULES.map((line) =>
      line.startsWith("  import:") ? "  import: { type: agile, file: agile.json, fallback: 0.3 }" : line,
    );
    const result = await savings({ config: setup("agile", true, agile), from: "2026-01-14", to: "2026-01-14" });
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    // At one flat price moving energy in time saves nothing: 20 kWh at 0.30 less 8 kWh at 0.15 is
    // 4.80 with the battery, and the 40 dark half-hours' 20 kWh less the same export without it.
    const row = result.out.split("\n").find((line) => line.startsWith("2026-01-14"));
    expect(row?.split(/ +/).slice(0, 7)).toEqual([
      "2026-01-14",
      "48/48",
      "20%",
      "4.80",
      "4.80",
      expect.any(String),
      "0.00",
    ]);
    expect(result.out).toContain(
      "Half-hours priced with the tariff's fallback, not a published price: 2026-01-14 (48)",
    );
  });

  it("prices the days the tariff no longer holds at the published prices the daemon stored", async () => {
    // The Agile file holds 22-23 November 2026 only; the store kept 14 January's published prices: the zones' own.
    const agile = RULES.map((line) =>
      line.startsWith("  import:") ? "  import: { type: agile, file: agile.json, fallback: 0.3 }" : line,
    );
    const config = setup("stored-prices", true, agile);
    const store = openStore(join(dir, "stored-prices", "e2m.db"));
    store.publishedPrices.save(
      Array.from({ length: 48 }, (_, k) => ({
        side: "import" as const,
        start: DAY + k * 1_800_000,
        end: DAY + (k + 1) * 1_800_000,
        price: k < 8 ? 0.1 : 0.3,
      })),
    );
    store.close();
    const result = await savings({ config, from: "2026-01-14", to: "2026-01-14" });
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    // The first test's figures, priced as published: not the fallback's flat 0.30 (4.80 with the battery and without).
    const row = result.out.split("\n").find((line) => line.startsWith("2026-01-14"));
    expect(row?.split(/ +/)).toEqual([
      "2026-01-14",
      "48/48",
      "20%",
      "0.80",
      "4.00",
      "2.77",
      "3.20",
      "1.97",
      "published",
    ]);
    expect(result.out).not.toContain("Half-hours priced with the tariff's fallback");
  });

  it("refuses bad dates and a missing store with exit 2 and says what to fix", async () => {
    const config = setup("bad");
    const notADate = await savings({ config, from: "2026-13-01" });
    expect(notADate.code).toBe(2);
    expect(notADate.err).toBe("--from must be a date written YYYY-MM-DD, e.g. 2026-11-01\n");
    const backwards = await savings({ config, from: "2026-01-15", to: "2026-01-14" });
    expect(backwards.code).toBe(2);
    expect(backwards.err).toBe("--from 2026-01-15 is after --to 2026-01-14\n");
    const capacity = await savings({ config, capacity: "-3" });
    expect(capacity.code).toBe(2);
    expect(capacity.err).toBe("--capacity must be a positive number of kWh\n");
    const noStore = await savings({ config: setup("empty", false) });
    expect(noStore.code).toBe(2);
    expect(noStore.err).toMatch(/^no store at .*e2m\.db: run the daemon/);
  });
});
