import { interval, take } from "rxjs";
import { describe, expect, it } from "vitest";
import { SimClock } from "../../src/simulator/clock.js";
import { every, later, systemClock } from "../../src/time/clock.js";
import { VirtualClock } from "../../src/time/virtual-clock.js";

const T0 = Date.parse("2026-03-29T00:00:00Z");

describe("the virtual clock", () => {
  it("runs each timer at its own instant, in order, and only when time reaches it", () => {
    const clock = new VirtualClock(T0);
    const seen: string[] = [];
    later(clock, 3000, () => seen.push(`b@${clock.now() - T0}`));
    later(clock, 1000, () => seen.push(`a@${clock.now() - T0}`));
    const cancel = later(clock, 2000, () => seen.push("cancelled"));
    cancel();
    clock.advance(999);
    expect(seen).toEqual([]);
    clock.advance(5000);
    expect(seen).toEqual(["a@1000", "b@3000"]);
    expect(clock.now()).toBe(T0 + 5999);
    expect(clock.pending).toBe(0);
  });

  it("repeats with every() until cancelled, and drives RxJS operators", () => {
    const clock = new VirtualClock(T0);
    const ticks: number[] = [];
    const stop = every(clock, 60_000, () => ticks.push(clock.now() - T0));
    const values: number[] = [];
    interval(30_000, clock)
      .pipe(take(3))
      .subscribe((value) => values.push(value));
    clock.advance(180_000);
    stop();
    clock.advance(180_000);
    expect(ticks).toEqual([60_000, 120_000, 180_000]);
    expect(values).toEqual([0, 1, 2]);
    expect(clock.pending).toBe(0);
  });

  it("lets asynchronous work of one timer finish before the next one runs", async () => {
    const clock = new VirtualClock(T0);
    const log: string[] = [];
    every(clock, 1000, () => {
      log.push(`start ${clock.now() - T0}`);
      void Promise.resolve().then(() => log.push(`end ${clock.now() - T0}`));
    });
    await clock.advanceAsync(2000);
    expect(log).toEqual(["start 1000", "end 1000", "start 2000", "end 2000"]);
  });

  it("runs the timers of one instant together before letting their work settle", async () => {
    const clock = new VirtualClock(T0);
    const log: string[] = [];
    for (const name of ["a", "b"]) later(clock, 1000, () => log.push(name));
    later(clock, 2000, () => log.push("c"));
    await clock.advanceAsync(2000, async () => {
      log.push("settle");
    });
    expect(log).toEqual(["a", "b", "settle", "c", "settle"]);
  });

  it("never moves backwards", () => {
    expect(() => new VirtualClock(T0).advance(-1)).toThrow(RangeError);
  });
});

describe("the simulator's clock as a Clock", () => {
  it("fires timers at simulated instants when advanced by hand", () => {
    const clock = new SimClock({ start: T0, speed: 0 });
    const seen: number[] = [];
    every(clock, 300_000, () => seen.push(clock.now() - T0));
    clock.advance(900_000);
    expect(seen).toEqual([300_000, 600_000, 900_000]);
    expect(clock.now()).toBe(T0 + 900_000);
  });

  it("fires timers on its own when it runs, scaled by its speed", async () => {
    let wall = 0;
    const clock = new SimClock({ start: T0, speed: 1000, wallClock: () => wall });
    const fired = new Promise<number>((resolve) => later(clock, 60_000, () => resolve(clock.now() - T0)));
    // 60 simulated seconds are 60 ms of wall time at speed 1000.
    wall = 60;
    expect(await fired).toBe(60_000);
  });
});

describe("the system clock", () => {
  it("reads wall time", () => {
    const before = Date.now();
    expect(systemClock.now()).toBeGreaterThanOrEqual(before);
    expect(systemClock.now()).toBeLessThanOrEqual(Date.now());
  });

  it("runs a system timer and cancels another", async () => {
    const cancelled: string[] = [];
    later(systemClock, 1, () => cancelled.push("ran"))();
    await new Promise<void>((resolve) => later(systemClock, 1, resolve));
    expect(cancelled).toEqual([]);
  });
});
