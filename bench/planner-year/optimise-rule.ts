import { type Battery, forecastLoad, type SlotAction } from "../../src/optimiser/index.js";
import { type ModeWindow, planOptimiseWindows } from "../../src/rules/planners/optimise-windows.js";
import type { Rate } from "../../src/rules/tariffs/index.js";
import { type SlotClock, TIME_ZONE } from "./clock.js";
import type { Year } from "./data.js";
import type { Decide } from "./simulate.js";
import { learnedSolar, type SolarForecaster } from "./solar-forecasts.js";

const SLOT_MS = 30 * 60_000;
const DAY = 48;

/**
 * Policy 5c: the daemon's optimise rule as the engine runs it. Every half-hour without an open
 * window it plans with the rule's own planner (planOptimiseWindows: published prices only, the
 * house's forecasts from past data) and opens the window that covers now; an open window's mode
 * and target hold until its end, as the engine keeps a window once it has opened.
 */
export function optimiseRule(
  year: Year,
  clocks: readonly SlotClock[],
  battery: Battery,
  changeCost: number,
  solarForecast: SolarForecaster = learnedSolar(year),
): { decide: Decide; solveMs: number[] } {
  const solveMs: number[] = [];
  const samples = (series: readonly number[], from: number, to: number) =>
    series.slice(from, to).map((kwh, index) => ({ start: year.starts[from + index] as number, kwh }));
  const rates = (series: readonly number[], from: number, to: number): Rate[] =>
    series.slice(from, to).map((price, index) => {
      const start = year.starts[from + index] as number;
      return { start, end: start + SLOT_MS, price, estimated: false };
    });
  let open: ModeWindow | undefined;
  const decide: Decide = (t, socKwh) => {
    const at = year.starts[t] as number;
    if (open && at < open.end) return actionOf(open, battery);
    open = undefined;
    const known = (clocks[t] as SlotClock).knownUntil;
    const ahead = { from: at, timeZone: TIME_ZONE, slots: Math.max(1, known - t) };
    const plan = planOptimiseWindows({
      spec: {
        horizon_hours: 48,
        reserve_soc: battery.reservePercent,
        discharge_kw: battery.dischargeKw,
        discharge_efficiency: battery.dischargeEfficiency,
        change_cost: changeCost,
      },
      now: at,
      to: at + 48 * 2 * SLOT_MS,
      importRates: rates(year.importPrice, t, known),
      exportRates: rates(year.exportPrice, t, known),
      house: {
        from: at,
        load: forecastLoad(samples(year.load, Math.max(0, t - 28 * DAY), t), ahead),
        solar: solarForecast(t, ahead.slots),
        days: Math.min(28, Math.floor(t / DAY)),
      },
      soc: (socKwh / battery.capacityKwh) * 100,
      capacityKwh: battery.capacityKwh,
      chargeKw: battery.chargeKw,
      chargeEfficiency: battery.chargeEfficiency,
    });
    solveMs.push(plan.solveMs);
    const first = plan.windows[0];
    if (!first || first.start > at) return { mode: "eco" };
    open = first;
    return actionOf(first, battery);
  };
  return { decide, solveMs };
}

function actionOf(window: ModeWindow, battery: Battery): SlotAction {
  if (window.mode === "hold") return { mode: "hold" };
  return { mode: window.mode, targetKwh: (window.targetSoc / 100) * battery.capacityKwh };
}
