import { describe, expect, it } from "vitest";
import { planBattery, planEv, planWindow } from "../../src/rules/planners/planner.js";
import { AgileTariff, type Rate, ZonesTariff } from "../../src/rules/tariffs/index.js";
import { nextLocalTime } from "../../src/time/local-time.js";
import { iso, utc } from "./helpers.js";

const HOUR = 3_600_000;
const LONDON = "Europe/London";
const FIXTURE = new URL("../fixtures/octopus-agile-prices.example.json", import.meta.url).pathname;

/** Half-hourly rates from a start, one per price. */
function rates(start: string, prices: readonly number[]): Rate[] {
  return prices.map((price, index) => ({
    start: utc(start) + index * 1_800_000,
    end: utc(start) + (index + 1) * 1_800_000,
    price,
    estimated: false,
  }));
}
const windows = (plan: { windows: readonly { start: number; end: number }[] }) =>
  plan.windows.map((window) => `${iso(window.start)}..${iso(window.end)}`);

describe("planWindow", () => {
  const prices = rates("2026-01-10T00:00", [0.3, 0.1, 0.3, 0.05, 0.05, 0.3, 0.1, 0.3]);
  const base = { now: utc("2026-01-10T00:00"), deadline: utc("2026-01-10T04:00"), rates: prices };

  it("split: takes the cheapest half-hours wherever they are", () => {
    const plan = planWindow({ ...base, durationMs: 2 * HOUR, split: true });
    expect(windows(plan)).toEqual([
      "2026-01-10T00:30..2026-01-10T01:00",
      "2026-01-10T01:30..2026-01-10T02:30",
      "2026-01-10T03:00..2026-01-10T03:30",
    ]);
    expect(plan.fallback).toBe("none");
    expect(plan.met).toBe(true);
    expect(plan.averagePrice).toBeCloseTo(0.075);
  });

  it("continuous: the cheapest single window, starting or ending on a slot boundary", () => {
    const plan = planWindow({ ...base, durationMs: 1.5 * HOUR, split: false });
    // 01:00-02:30 costs 0.3+0.05+0.05 and 01:30-03:00 costs 0.05+0.05+0.3: equal, so the later one.
    expect(windows(plan)).toEqual(["2026-01-10T01:30..2026-01-10T03:00"]);
  });

  it("dearest: the most expensive window, for export", () => {
    const plan = planWindow({ ...base, durationMs: HOUR, split: false, prefer: "dearest" });
    // 00:00, 02:30 and 03:00 all start windows worth 0.4: the latest wins.
    expect(windows(plan)).toEqual(["2026-01-10T03:00..2026-01-10T04:00"]);
    const peak = planWindow({ ...base, durationMs: 0.5 * HOUR, split: true, prefer: "dearest" });
    expect(windows(peak)).toEqual(["2026-01-10T03:30..2026-01-10T04:00"]);
  });

  it("trims the last split slot at the side that joins its neighbour", () => {
    const plan = planWindow({ ...base, durationMs: 1.25 * HOUR, split: true });
    // 01:30-02:30 at 0.05, then a quarter hour of a 0.1 slot: the later one, 03:00-03:30, trimmed to its end.
    expect(windows(plan)).toEqual(["2026-01-10T01:30..2026-01-10T02:30", "2026-01-10T03:15..2026-01-10T03:30"]);
    const joined = planWindow({
      ...base,
      rates: rates("2026-01-10T00:00", [0.3, 0.3, 0.05, 0.1, 0.3, 0.3, 0.3, 0.3]),
      durationMs: 0.75 * HOUR,
      split: true,
    });
    expect(windows(joined)).toEqual(["2026-01-10T01:00..2026-01-10T01:45"]);
  });

  it("starts mid-slot: the first slot is the rest of the current half-hour", () => {
    // 50 minutes: all of 02:00-02:30 and the 20 minutes left of the 01:30 slot, both at 0.05.
    const plan = planWindow({ ...base, now: utc("2026-01-10T01:40"), durationMs: (50 / 60) * HOUR, split: true });
    expect(windows(plan)).toEqual(["2026-01-10T01:40..2026-01-10T02:30"]);
    expect(plan.slots[0]).toMatchObject({ start: utc("2026-01-10T01:40"), end: utc("2026-01-10T02:00"), price: 0.05 });
  });

  it("no prices at all: a plain window just before the deadline", () => {
    const plan = planWindow({ ...base, rates: [], durationMs: 1.5 * HOUR, split: true });
    expect(windows(plan)).toEqual(["2026-01-10T02:30..2026-01-10T04:00"]);
    expect(plan.fallback).toBe("no-prices");
    expect(plan.notes[0]).toContain("plain 1.5 h window just before it");
  });

  it("too little time: starts now and says the target cannot be met", () => {
    const plan = planWindow({ ...base, now: utc("2026-01-10T03:00"), durationMs: 2 * HOUR, split: false });
    expect(windows(plan)).toEqual(["2026-01-10T03:00..2026-01-10T04:00"]);
    expect(plan.met).toBe(false);
    expect(plan.fallback).toBe("too-little-time");
    expect(plan.notes[0]).toBe("too little time: 2.0 h needed but 1.0 h left; starting now, the target cannot be met");
  });

  it("a passed deadline or nothing to do plans nothing", () => {
    expect(planWindow({ ...base, now: base.deadline, durationMs: HOUR, split: true }).fallback).toBe("deadline-passed");
    const none = planWindow({ ...base, durationMs: 0, split: true });
    expect(none.slots).toEqual([]);
    expect(none.met).toBe(true);
    expect(none.fallback).toBe("already-met");
  });

  it("uses slots without a price only when the priced ones are not enough", () => {
    const partial = rates("2026-01-10T00:00", [0.3, 0.2]);
    const enough = planWindow({ ...base, rates: partial, durationMs: 0.5 * HOUR, split: true });
    expect(windows(enough)).toEqual(["2026-01-10T00:30..2026-01-10T01:00"]);
    const short = planWindow({ ...base, rates: partial, durationMs: 1.5 * HOUR, split: true });
    expect(windows(short)).toEqual(["2026-01-10T00:00..2026-01-10T01:00", "2026-01-10T03:30..2026-01-10T04:00"]);
    expect(short.fallback).toBe("unpriced-slots");
    const continuous = planWindow({ ...base, rates: partial, durationMs: 1.5 * HOUR, split: false });
    expect(windows(continuous)).toEqual(["2026-01-10T00:00..2026-01-10T01:30"]);
  });
});

describe("planBattery", () => {
  it("charges in the cheapest Agile slots before 07:00 tomorrow, to the target, with the SoC over time", async () => {
    const now = utc("2026-11-22T23:00");
    const tariff = new AgileTariff(
      { type: "agile", file: FIXTURE, refresh: 1_800_000, published_at: "16:00", scale: 0.01 },
      LONDON,
      undefined,
    );
    await tariff.load(now);
    const deadline = nextLocalTime(now, "07:00", LONDON);
    const plan = planBattery({
      now,
      deadline,
      rates: tariff.rates(now, deadline),
      capacityKwh: 9.5,
      soc: 40,
      targetSoc: 100,
      efficiency: 0.95,
      chargeKw: 3,
      split: true,
    });
    // 5.7 kWh stored at 95%: 6 kWh from the grid, 2 hours at 3 kW.
    expect(plan.requiredKwh).toBe(6);
    expect(plan.plannedKwh).toBe(6);
    expect(plan.met).toBe(true);
    expect(plan.finalSoc).toBe(100);
    const chosen = plan.slots.map((slot) => slot.price ?? 0);
    const others = tariff
      .rates(now, deadline)
      .filter((rate) => !plan.slots.some((slot) => slot.start === rate.start))
      .map((rate) => rate.price);
    expect(Math.max(...chosen)).toBeLessThanOrEqual(Math.min(...others));
    expect(plan.cost).toBeCloseTo(
      chosen.reduce((sum, price) => sum + price * 1.5, 0),
      3,
    );
    const socs = plan.soc.map((point) => point.soc);
    expect(socs[0]).toBe(40);
    expect(socs).toEqual([...socs].sort((a, b) => a - b));
    expect(plan.soc[plan.soc.length - 1]).toEqual({ at: deadline, soc: 100 });
  });

  it("does nothing when the battery is at the target already", () => {
    const plan = planBattery({
      now: utc("2026-01-10T00:00"),
      deadline: utc("2026-01-10T07:00"),
      rates: [],
      capacityKwh: 10,
      soc: 95,
      targetSoc: 90,
      efficiency: 0.9,
      chargeKw: 3,
      split: true,
    });
    expect(plan.slots).toEqual([]);
    expect(plan.fallback).toBe("already-met");
    expect(plan.finalSoc).toBe(95);
  });

  it("too little time: charges from now and reports the SoC it will reach", () => {
    const plan = planBattery({
      now: utc("2026-01-10T06:00"),
      deadline: utc("2026-01-10T07:00"),
      rates: rates("2026-01-10T06:00", [0.1, 0.1]),
      capacityKwh: 10,
      soc: 20,
      targetSoc: 100,
      efficiency: 1,
      chargeKw: 3,
      split: true,
    });
    expect(plan.met).toBe(false);
    expect(plan.fallback).toBe("too-little-time");
    expect(windows(plan)).toEqual(["2026-01-10T06:00..2026-01-10T07:00"]);
    expect(plan.finalSoc).toBe(50);
    expect(plan.cost).toBeCloseTo(0.3);
  });

  it("no prices across the autumn clock change: a plain window before 07:00 GMT, 12 hours away", () => {
    const now = utc("2026-10-24T19:00"); // 20:00 BST
    const deadline = nextLocalTime(now, "07:00", LONDON);
    expect(iso(deadline)).toBe("2026-10-25T07:00");
    expect(deadline - now).toBe(12 * HOUR);
    const plan = planBattery({
      now,
      deadline,
      rates: [],
      capacityKwh: 10,
      soc: 40,
      targetSoc: 100,
      efficiency: 1,
      chargeKw: 3,
      split: true,
    });
    expect(windows(plan)).toEqual(["2026-10-25T05:00..2026-10-25T07:00"]);
    expect(plan.fallback).toBe("no-prices");
    expect(plan.cost).toBeUndefined();
  });

  it("follows a zones tariff on the spring clock change: the cheap hours are local", () => {
    const now = utc("2026-03-28T20:00");
    const deadline = nextLocalTime(now, "07:00", LONDON);
    const tariff = new ZonesTariff(0.3, [{ price: 0.07, hours: "00:30-04:30" }], LONDON);
    const plan = planBattery({
      now,
      deadline,
      rates: tariff.rates(now, deadline),
      capacityKwh: 10,
      soc: 70,
      targetSoc: 100,
      efficiency: 1,
      chargeKw: 3,
      split: false,
    });
    // 00:30-04:30 local on 29 March is 00:30-03:30 UTC (clocks go forward at 01:00 UTC).
    expect(windows(plan)).toEqual(["2026-03-29T02:30..2026-03-29T03:30"]);
    expect(plan.cost).toBeCloseTo(0.21);
  });
});

describe("planEv", () => {
  it("delivers the energy in one continuous window, in whole minutes", () => {
    const plan = planEv({
      now: utc("2026-01-10T00:00"),
      deadline: utc("2026-01-10T04:00"),
      rates: rates("2026-01-10T00:00", [0.3, 0.3, 0.1, 0.1, 0.1, 0.3, 0.3, 0.3]),
      kwh: 10,
      chargeKw: 7,
      split: false,
    });
    // 10 / 7 h = 85.7 min, so 86 minutes; the window ending 02:30 keeps it inside the cheap slots.
    expect(windows(plan)).toEqual(["2026-01-10T01:04..2026-01-10T02:30"]);
    expect(plan.plannedKwh).toBe(10);
    expect(plan.cost).toBeCloseTo(1.0, 1);
  });
});
