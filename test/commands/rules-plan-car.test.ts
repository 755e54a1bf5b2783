import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { carFromDaemon } from "../../src/commands/rules-plan-car.js";
import { explainedSlotSchema } from "../../src/optimiser/index.js";
import { loadRules } from "../../src/rules/index.js";
import type { CarState } from "../../src/rules-runtime/index.js";
import { freePort } from "../web/demo.js";
import { runPlan } from "./rules-plan-run.js";

const FIXTURE = new URL("../fixtures/octopus-agile-prices.example.json", import.meta.url).pathname;
const NOW = "2026-11-22T23:00:00Z";
/** 07:30 in London (GMT in November) the morning after NOW: the car's `by`. */
const DEADLINE = Date.parse("2026-11-23T07:30:00Z");
const SLOT_MS = 30 * 60_000;

const HEAD = [
  "timezone: Europe/London",
  "battery: { capacity_kwh: 10, charge_kw: 2.5, efficiency: 0.95 }",
  "ev: { charge_kw: 7 }",
  "tariffs:",
  "  import: { type: agile, file: agile.json, fallback: 0.3 }",
  "  export: { type: fixed, price: 0.15 }",
  "rules:",
];
const KWH_CAR = [
  ...HEAD,
  "  - name: optimiser",
  '    when: { optimise: { reserve_soc: 10, car: { kwh: 10, by: "07:30" } } }',
];
const SOC_CAR = [
  ...HEAD,
  "  - name: optimiser",
  "    when:",
  "      optimise:",
  "        reserve_soc: 10",
  '        car: { soc: 80, battery_kwh: 60, soc_topic: home/car/soc, by: "07:30" }',
];
const NO_CAR = [...HEAD, "  - name: optimiser", "    when: { optimise: { reserve_soc: 10 } }"];

/** `rules` beside the fixture's Agile day; returns the rules file. */
function writeRules(rules: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "e2m-rules-car-"));
  copyFileSync(FIXTURE, join(dir, "agile.json"));
  writeFileSync(join(dir, "rules.yaml"), `${rules.join("\n")}\n`);
  return join(dir, "rules.yaml");
}

/** The Agile day of the fixture and `rules`; the web port a free one, so that no daemon answers. */
async function setup(rules: readonly string[]): Promise<string> {
  const dir = join(writeRules(rules), "..");
  const config = join(dir, "configuration.yaml");
  writeFileSync(
    config,
    `rules: rules.yaml\nstore: { path: ${join(dir, "e2m.db")} }\nweb: { port: ${await freePort()} }\n`,
  );
  return config;
}

/** The fixture's import prices by half-hour start. */
function prices(): Map<number, number> {
  const body = JSON.parse(readFileSync(FIXTURE, "utf8")) as {
    results: { valid_from: string; value_inc_vat: number }[];
  };
  return new Map(body.results.map((slot) => [Date.parse(slot.valid_from), slot.value_inc_vat]));
}

/** `--json`'s optimiser half-hours. */
function slotsOf(out: string) {
  const body = JSON.parse(out) as { rules: { name: string; slots: unknown[] }[]; car?: Record<string, unknown> };
  return { slots: (body.rules[0]?.slots ?? []).map((slot) => explainedSlotSchema.parse(slot)), car: body.car };
}

describe("rules plan plans an optimise rule's car", () => {
  beforeEach(() => vi.stubEnv("ENERGY2MQTT_CONFIG", ""));
  afterEach(() => vi.unstubAllEnvs());

  it("with --car-plugged: the car's 10 kWh in the cheapest half-hours before its 07:30, shown per slot", async () => {
    const config = await setup(KWH_CAR);
    const options = { config, now: NOW, hours: "24", soc: "30", carPlugged: true };
    const text = await runPlan(options);
    expect(text.err).toBe("");
    expect(text.code).toBe(0);
    const lines = text.out.split("\n");
    expect(lines[2]).toBe("Car: plugged in (--car-plugged), nothing delivered yet toward 07:30");
    expect(text.out).toMatch(/^ {2}time +action +import +export +SoC +load +solar +car +cost +total +reason$/m);
    const json = await runPlan({ ...options, json: true });
    expect(json.code).toBe(0);
    const { slots, car } = slotsOf(json.out);
    expect(car).toEqual({ source: "flags", plugged: true, topics: {}, deliveredKwh: {}, needKwh: null });
    const charging = slots.filter((slot) => (slot.carKwh ?? 0) > 0);
    // 10 kWh at 7 kW: two full half-hours and most of a third.
    expect(charging.reduce((sum, slot) => sum + (slot.carKwh ?? 0), 0)).toBeCloseTo(10, 6);
    expect(charging).toHaveLength(3);
    const price = prices();
    const before = slots.filter((slot) => slot.start + SLOT_MS <= DEADLINE);
    const dearestCharging = Math.max(...charging.map((slot) => price.get(slot.start) ?? Number.NaN));
    for (const slot of charging) expect(slot.start + SLOT_MS).toBeLessThanOrEqual(DEADLINE);
    // No half-hour before the deadline the car skipped is cheaper than one it charges in.
    for (const slot of before.filter((one) => !charging.includes(one)))
      expect(price.get(slot.start)).toBeGreaterThanOrEqual(dearestCharging);
    // The table's car column says the same, row by row.
    for (const slot of slots) {
      const row = lines.find((line) => line.startsWith(`  ${slot.time} `)) ?? "";
      expect(row.split(/ +/)[9], row).toBe((slot.carKwh ?? 0).toFixed(2));
    }
  });

  it("with --car-need-kwh: only what the car still needs, in the cheapest half-hour", async () => {
    const config = await setup(KWH_CAR);
    const result = await runPlan({ config, now: NOW, hours: "24", soc: "30", carNeedKwh: "3.5", json: true });
    expect(result.code).toBe(0);
    const { slots, car } = slotsOf(result.out);
    expect(car).toMatchObject({ source: "flags", plugged: true, needKwh: 3.5 });
    const charging = slots.filter((slot) => (slot.carKwh ?? 0) > 0);
    const price = prices();
    const cheapest = Math.min(
      ...slots.filter((slot) => slot.start + SLOT_MS <= DEADLINE).map((slot) => price.get(slot.start) ?? Number.NaN),
    );
    expect(charging.map((slot) => [price.get(slot.start), slot.carKwh])).toEqual([[cheapest, 3.5]]);
    const text = await runPlan({ config, now: NOW, hours: "24", soc: "30", carNeedKwh: "3.5" });
    expect(text.out.split("\n")[2]).toBe(
      "Car: plugged in (implied by --car-need-kwh), needing 3.5 kWh by 07:30 (--car-need-kwh)",
    );
  });

  it("with --car-soc for a SoC target: 80% of 60 kWh from 70% is 6 kWh", async () => {
    const config = await setup(SOC_CAR);
    const result = await runPlan({ config, now: NOW, hours: "24", soc: "30", carSoc: "70", json: true });
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    const { slots, car } = slotsOf(result.out);
    expect(car).toMatchObject({ source: "flags", plugged: true, topics: { "home/car/soc": 70 } });
    expect(slots.reduce((sum, slot) => sum + (slot.carKwh ?? 0), 0)).toBeCloseTo(6, 6);
  });

  it("with no daemon and no flag: no car, and the header says why and how to plan one", async () => {
    const config = await setup(SOC_CAR);
    const result = await runPlan({ config, now: NOW, hours: "24", soc: "30" });
    expect(result.code).toBe(0);
    expect(result.out.split("\n")[2]).toMatch(
      /^No car: the charger's state is unknown \(no daemon answered at http:\/\/127\.0\.0\.1:\d+\/ \(ECONNREFUSED\)\); pass --car-plugged \(with --car-need-kwh KWH or --car-soc PERCENT\) to plan one$/,
    );
    expect(result.out).toContain("note: optimiser: car: the charger has not said whether a car is plugged in");
    // No car planned: no car column.
    expect(result.out).toMatch(/^ {2}time +action +import +export +SoC +load +solar +cost +total +reason$/m);
  });

  it("words the daemon's car: plugged in with what was delivered toward a kWh target, not plugged in, or unknown", () => {
    const rules = loadRules(writeRules(KWH_CAR)).rules;
    const found = (car: CarState | undefined) => ({
      found: {
        url: "http://127.0.0.1:8080/",
        live: true,
        socPercent: 50,
        capacityKwh: 9.5,
        capacitySource: "default",
        timeZone: "UTC",
        car,
      },
    });
    const plugged = { plugged: true, topics: { "home/car/target": 12 }, deliveredKwh: { optimiser: 2.25 } };
    expect(carFromDaemon(found(plugged), rules)).toEqual({
      car: { state: plugged },
      line: "Car: plugged in, from the running daemon at http://127.0.0.1:8080/ (the Plan page's car): 2.3 kWh delivered toward 07:30; 12 on home/car/target",
    });
    expect(carFromDaemon(found({ ...plugged, plugged: false }), rules).line).toBe(
      "No car: not plugged in, says the running daemon at http://127.0.0.1:8080/; pass --car-plugged (with --car-need-kwh KWH) to plan one",
    );
    expect(carFromDaemon(found({ ...plugged, plugged: null }), rules).line).toMatch(
      /^No car: the charger's state is unknown \(the running daemon at http:\/\/127\.0\.0\.1:8080\/ has had no status from it yet\)/,
    );
    expect(carFromDaemon(found(undefined), rules)).toEqual({
      car: undefined,
      line: "No car: the charger's state is unknown (the running daemon at http://127.0.0.1:8080/ gave none); pass --car-plugged (with --car-need-kwh KWH) to plan one",
    });
  });

  it.each([
    [NO_CAR, { carPlugged: true }, "--car-plugged: the rules file has no optimise rule with a car (optimise: car:)"],
    [KWH_CAR, { carNeedKwh: "lots" }, "--car-need-kwh must be a number of kWh from 0 to 250"],
    [KWH_CAR, { carNeedKwh: "-1" }, "--car-need-kwh must be a number of kWh from 0 to 250"],
    [SOC_CAR, { carSoc: "120" }, "--car-soc must be the car's SoC, a percentage from 0 to 100"],
    [KWH_CAR, { carSoc: "40" }, "--car-soc is the car's own SoC for a soc: target, but the car of rule optimiser"],
    [SOC_CAR, { carSoc: "40", carNeedKwh: "5" }, "give --car-need-kwh or --car-soc, not both"],
  ])("refuses bad car flags with exit 2 and says what to fix (%#)", async (rules, flags, message) => {
    const config = await setup(rules);
    const result = await runPlan({ config, now: NOW, hours: "24", soc: "30", ...flags });
    expect(result.code).toBe(2);
    expect(result.out).toBe("");
    expect(result.err).toContain(message);
  });
});
