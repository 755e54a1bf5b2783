import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuleEvent } from "../../../src/rules/engine/index.js";
import { CHARGER, type Env, MINUTE, startEnv } from "./helpers.js";

// Sunday evening in June, as in ev-night: the demo car comes home and stays the night. The
// fixture's Agile prices start at 23:00 UTC; the car must have its energy by 07:30 London time.
const START = Date.UTC(2025, 5, 15, 16, 0);
const DEADLINE = Date.UTC(2025, 5, 16, 6, 30);
/** A limit the battery's 3 kW and the car's 7 kW together go over, each alone not. */
const LIMIT_KW = 9.5;
const RULES = [
  "timezone: Europe/London",
  "battery: { capacity_kwh: 9.5, charge_kw: 3 }",
  "ev: { charge_kw: 7 }",
  "tariffs:",
  "  import: { type: agile, file: agile.json }",
  "  export: { type: fixed, price: 0.05 }",
  "rules:",
  "  - name: optimiser",
  `    when: { optimise: { reserve_soc: 10, import_limit_kw: ${LIMIT_KW}, car: { kwh: 7, by: "07:30" } } }`,
];

type WindowEvent = Extract<RuleEvent, { type: "window" }>;

describe("an optimise rule with a car: charger commands through the gate in the cheap half-hours, under the import limit", () => {
  let env: Env;
  let run: Awaited<ReturnType<Env["startRuntime"]>>;
  let prices: { start: number; price: number }[];
  const statuses: { at: number; status: string | null | undefined; label: string }[] = [];

  beforeAll(async () => {
    env = await startEnv({ start: START, rules: RULES });
    prices = (
      JSON.parse(readFileSync(join(env.dir, "agile.json"), "utf8")) as {
        results: { valid_from: string; value_inc_vat: number }[];
      }
    ).results.map((slot) => ({ start: Date.parse(slot.valid_from), price: slot.value_inc_vat }));
    // The charger would otherwise start charging the moment the car is plugged in.
    await env.checker.evChargers.sendCommand(CHARGER, "set-plug-and-go", { enabled: false });
    run = await env.startRuntime({ firstRound: { soc: 20 } });
    const seeCharger = async () => run.pushCharger((await env.checker.evChargers.get(CHARGER)).status ?? "Available");
    await seeCharger();
    for (let at = START + 30 * MINUTE; at <= DEADLINE; at += 30 * MINUTE) {
      await run.advanceTo(at, async () => {
        const opened = run.events.filter((event): event is WindowEvent => event.type === "window").at(-1);
        if (opened?.phase !== "open") return;
        const status = (await env.checker.evChargers.get(CHARGER)).status;
        statuses.push({ at: env.now(), status, label: opened.message });
      });
      await seeCharger();
    }
  }, 120_000);

  afterAll(async () => {
    await run?.runtime.stop();
    await env?.stop();
  });

  const opened = () =>
    run.events.filter((event): event is WindowEvent => event.type === "window" && event.phase === "open");
  const carWindows = () => opened().filter((event) => event.message.includes("charge the car"));

  it("starts the charger only in the night's cheapest half-hours before the deadline", () => {
    const cars = carWindows();
    expect(cars.length).toBeGreaterThan(0);
    const night = prices.filter((slot) => slot.start < DEADLINE).sort((a, b) => a.price - b.price);
    const cheapest = night.slice(0, 4).map((slot) => slot.start);
    for (const window of cars) {
      for (let at = window.window.start; at < window.window.end; at += 30 * MINUTE)
        expect(cheapest).toContain(Math.floor(at / (30 * MINUTE)) * 30 * MINUTE);
      expect(window.window.end).toBeLessThanOrEqual(DEADLINE);
    }
    expect(statuses.some((seen) => seen.label.includes("charge the car") && seen.status === "Charging")).toBe(true);
  });

  it("writes start-charge through the gate as the rule's, audited, and its restore stops the charging after", () => {
    const rows = run.store.audit.recent({ limit: 500 });
    const starts = rows.filter((row) => row.action.includes("start-charge"));
    expect(starts.length).toBeGreaterThan(0);
    expect(starts.every((row) => row.source === "rule" && row.requesterName === "optimiser" && row.ok)).toBe(true);
    expect(rows.some((row) => row.action.includes("stop-charge") && row.source === "rule")).toBe(true);
    const restores = run.events.filter((event) => event.type === "restore");
    expect(restores.length).toBeGreaterThan(0);
    expect(restores.every((event) => event.type === "restore" && event.ok)).toBe(true);
  });

  it("never opens a window that charges the battery from the grid and the car together over the limit", () => {
    const windows = opened();
    expect(windows.some((event) => event.message.includes("grid charge"))).toBe(true);
    for (const event of windows) {
      const kw = (event.message.includes("grid charge") ? 3 : 0) + (event.message.includes("charge the car") ? 7 : 0);
      expect(kw).toBeLessThanOrEqual(LIMIT_KW);
    }
  });
});
