import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuleEvent } from "../../../src/rules/engine/index.js";
import type { HouseForecast } from "../../../src/rules/planners/optimise-windows.js";
import { type Env, HOUR, INVERTER, MINUTE, type Run, startEnv } from "./helpers.js";

// 23:00 UTC on a winter Tuesday, when the fixture's Agile day begins; London is on UTC in January.
const START = Date.UTC(2025, 0, 14, 23, 0);
const SLOT = 30 * MINUTE;
const END = START + 8 * HOUR;
// Export pays little, so the plan stores the night's cheap energy for the house's evening peak.
const RULES = [
  "timezone: Europe/London",
  "battery: { capacity_kwh: 9.5, charge_kw: 3 }",
  "tariffs:",
  "  import: { type: agile, file: agile.json }",
  "  export: { type: fixed, price: 0.01 }",
  "rules:",
  "  - name: optimiser",
  "    when: { optimise: { reserve_soc: 10 } }",
];

/** 0.1 kWh a half-hour, 0.4 from 16:00 to 19:00; no solar (a January night and day). */
function house(now: number): HouseForecast {
  const from = Math.floor(now / SLOT) * SLOT;
  const load = Array.from({ length: 96 }, (_, slot) => {
    const hour = new Date(from + slot * SLOT).getUTCHours();
    return hour >= 16 && hour < 19 ? 0.4 : 0.1;
  });
  return { from, load, solar: load.map(() => 0), days: 7 };
}

type WindowEvent = Extract<RuleEvent, { type: "window" }>;
interface HalfHour {
  readonly at: number;
  /** Values written to the inverter so far (the gate's daily write counts). */
  readonly writes: number;
  readonly events: readonly WindowEvent[];
  readonly timedCharge: Record<string, unknown>;
}

const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

describe("an optimise rule re-plans its open window every half-hour through the gate", () => {
  let env: Env;
  let run: Run;
  let before: Record<string, unknown>;
  const halfHours: HalfHour[] = [];
  const writes = () =>
    ["2025-01-14", "2025-01-15"].reduce((sum, day) => sum + run.store.writeCounts.get(INVERTER, day).writes, 0);

  beforeAll(async () => {
    env = await startEnv({ start: START, rules: RULES });
    before = await env.checker.inverterControl.presetValues(INVERTER, "timed-charge");
    run = await env.startRuntime({ house });
    await run.pushLive();
    for (let at = START + SLOT; at <= END; at += SLOT) {
      await run.advanceTo(at);
      const events = run.events.filter((event): event is WindowEvent => event.type === "window" && event.at === at);
      const timedCharge = await env.checker.inverterControl.presetValues(INVERTER, "timed-charge");
      halfHours.push({ at, writes: writes(), events, timedCharge });
      await run.pushLive();
    }
  }, 120_000);

  afterAll(async () => {
    await run?.runtime.stop();
    await env?.stop();
  });

  const replans = () => halfHours.flatMap((half) => half.events.filter((event) => event.phase === "replan"));

  it("writes a charge window's new target, keeping its start, when the plan moves it mid-window", () => {
    const moved = halfHours.filter((half) =>
      half.events.some((event) => /charge target \d+% → \d+%/.test(event.message)),
    );
    expect(moved.length).toBeGreaterThan(0);
    for (const half of moved) {
      const event = half.events.find((found) => found.phase === "replan");
      const target = Number(/→ (\d+)%/.exec(event?.message ?? "")?.[1]);
      const slot = (half.timedCharge.slots as Record<string, unknown>[])[0];
      expect(half.timedCharge.enabled).toBe(true);
      expect(Number(slot?.percent_limit)).toBe(target);
      expect(slot?.start_time).toMatch(new RegExp(`^${hhmm(event?.window.start ?? 0)}`));
      expect(slot?.end_time).toMatch(new RegExp(`^${hhmm(event?.window.end ?? 0)}`));
      // The window was open before this half-hour: it was re-planned, not opened again.
      expect(event?.window.start).toBeLessThan(half.at);
    }
    expect(replans().every((event) => event.message.startsWith("re-planned: "))).toBe(true);
  });

  it("writes nothing in a half-hour whose plan leaves the open window as it is", () => {
    let last = halfHours[0]?.writes ?? 0;
    let quiet = 0;
    for (const half of halfHours.slice(1)) {
      if (half.events.length === 0) {
        expect(half.writes, `writes at ${hhmm(half.at)}`).toBe(last);
        quiet++;
      }
      last = half.writes;
    }
    expect(quiet).toBeGreaterThan(0);
    // Some half-hours were under an open charge window and still wrote nothing.
    const open = halfHours.filter((half) => half.events.length === 0 && half.timedCharge.enabled === true);
    expect(open.length).toBeGreaterThan(0);
  });

  it("puts back the timed charge as it was before the window, however often it was re-planned", () => {
    const starts = replans().map((event) => event.window.start);
    const busiest = starts.find((start) => starts.filter((found) => found === start).length >= 2);
    expect(busiest).toBeDefined();
    const closed = halfHours.find((half) =>
      half.events.some((event) => event.phase === "close" && event.window.start === busiest),
    );
    expect(closed).toBeDefined();
    expect(closed?.timedCharge).toEqual(before);
    const restores = run.events.filter((event) => event.type === "restore");
    expect(restores.length).toBeGreaterThan(0);
    expect(restores.every((event) => event.type === "restore" && event.ok)).toBe(true);
    expect(run.store.ruleObligations.pending()).toEqual([]);
  });

  it("ends a window at once when the new plan drops its mode, putting the preset back", () => {
    const ended = halfHours.filter((half) =>
      half.events.some((event) => event.phase === "close" && event.message.startsWith("re-planned: ")),
    );
    expect(ended.length).toBeGreaterThan(0);
    for (const half of ended) {
      const event = half.events.find((found) => found.phase === "close");
      // Closed before the end it was planned with.
      expect(event?.window.end).toBeGreaterThan(half.at);
      expect(half.timedCharge).toEqual(before);
    }
  });
});
