import { planBattery, planWindow } from "../src/rules/planners/planner.js";
import type { Rate } from "../src/rules/tariffs/index.js";

const SLOT = 1_800_000;
const RUNS = 5_000;
const WARM_UP = 500;

/** 48 hours of half-hourly Agile-like prices: a daily curve with an evening peak and noise. */
function agileRates(start: number): Rate[] {
  let seed = 7;
  const noise = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647 - 0.5;
  };
  return Array.from({ length: 96 }, (_, index) => {
    const hour = (index / 2) % 24;
    const peak = hour >= 16 && hour < 19 ? 0.2 : 0;
    const night = hour < 6 ? -0.08 : 0;
    return {
      start: start + index * SLOT,
      end: start + (index + 1) * SLOT,
      price: 0.2 + peak + night + noise() * 0.06,
      estimated: false,
    };
  });
}

function measure(name: string, run: () => unknown): void {
  for (let i = 0; i < WARM_UP; i++) run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((sum, time) => sum + time, 0) / times.length;
  const p99 = times[Math.floor(times.length * 0.99)] ?? 0;
  console.log(
    `planner ${name}: mean ${(mean * 1000).toFixed(1)} µs, p99 ${(p99 * 1000).toFixed(1)} µs (${RUNS} runs, 96 slots)`,
  );
}

/** The planner over 48 hours of half-hourly slots; the target is under 1 ms. */
export async function plannerBenchmark(): Promise<void> {
  const now = Date.UTC(2026, 10, 22, 16, 10);
  const rates = agileRates(Date.UTC(2026, 10, 22, 16, 0));
  const deadline = now + 47 * 3_600_000;
  const battery = (split: boolean) => () =>
    planBattery({
      now,
      deadline,
      rates,
      capacityKwh: 13.5,
      soc: 20,
      targetSoc: 100,
      efficiency: 0.92,
      chargeKw: 3.6,
      split,
    });
  measure("battery, split windows", battery(true));
  measure("battery, one continuous window", battery(false));
  measure("window, 4 h most expensive", () =>
    planWindow({ now, deadline, rates, durationMs: 4 * 3_600_000, split: false, prefer: "dearest" }),
  );
}
