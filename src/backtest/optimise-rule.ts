import type { Battery, SlotAction } from "../optimiser/index.js";
import { type ModeWindow, planOptimiseWindows } from "../rules/planners/optimise-windows.js";
import { replanWindow } from "../rules/planners/window-replan.js";
import type { Rate } from "../rules/tariffs/index.js";
import { houseForecastAt } from "./house-forecast.js";
import type { SolarForecaster } from "./learned-solar.js";
import type { HalfHourSeries } from "./series.js";
import type { Decide } from "./simulate.js";
import type { SlotClock } from "./slot-clocks.js";

const SLOT_MS = 30 * 60_000;
const DAY = 48;

export interface OptimiseRuleSettings {
  readonly changeCost: number;
  /**
   * true: every half-hour the open window follows the new plan as the engine does (replanWindow:
   * same mode goes on with the new end and, when it moves by `targetStep` points or more within
   * reach, the new target; another mode ends it). false: an open window holds to its end.
   */
  readonly replan: boolean;
  /** Points a target must move to be written again; replanWindow's default when left out. */
  readonly targetStep?: number;
  /**
   * Beyond the published prices, a forecast from the last 14 days of published prices (the
   * daemon's price history), as planOptimiseWindows makes it when given priceHistory.
   */
  readonly priceForecast: boolean;
  /** The solar forecast the plan uses: the learned profile or the modelled weather (solar-forecasts.ts). */
  readonly solar: SolarForecaster;
  /** The rule is told the site's export limit (its export_limit_kw); false, it plans as if exports were never curtailed. */
  readonly exportLimit?: boolean;
}

export interface OptimiseRuleRun {
  readonly decide: Decide;
  readonly solveMs: number[];
  /** Each whole re-plan as the engine makes it: the house's forecasts, the price forecast and the solve. */
  readonly replanMs: number[];
  /** Open windows written again by a re-plan (a new target or a later end). */
  readonly rewrites: () => number;
}

/**
 * Policies 5c and 5d: the daemon's optimise rule as the engine runs it. Every half-hour it plans
 * with the rule's own planner (planOptimiseWindows: published prices only, the house's forecasts
 * from past data) and opens the window that covers now. 5c: an open window's mode and target hold
 * until its end. 5d: the open window follows each new plan (replanWindow), as the engine now does.
 */
export function optimiseRule(
  year: HalfHourSeries,
  clocks: readonly SlotClock[],
  battery: Battery,
  settings: OptimiseRuleSettings,
): OptimiseRuleRun {
  const solveMs: number[] = [];
  const replanMs: number[] = [];
  let rewrites = 0;
  const rates = (series: readonly number[], from: number, to: number): Rate[] =>
    series.slice(from, to).map((price, index) => {
      const start = year.starts[from + index] as number;
      return { start, end: start + SLOT_MS, price, estimated: false };
    });
  const plan = (t: number, socKwh: number): ModeWindow | undefined => {
    const began = performance.now();
    const at = year.starts[t] as number;
    const known = (clocks[t] as SlotClock).knownUntil;
    const slots = settings.priceForecast ? 2 * DAY : Math.max(1, known - t);
    const planned = planOptimiseWindows({
      spec: {
        horizon_hours: 48,
        reserve_soc: battery.reservePercent,
        discharge_kw: battery.dischargeKw,
        discharge_efficiency: battery.dischargeEfficiency,
        change_cost: settings.changeCost,
        ...(settings.exportLimit && battery.exportLimitKw !== undefined
          ? { export_limit_kw: battery.exportLimitKw }
          : {}),
      },
      now: at,
      to: at + DAY * 2 * SLOT_MS,
      importRates: rates(year.importPrice, t, known),
      exportRates: rates(year.exportPrice, t, known),
      house: houseForecastAt(year, settings.solar, t, slots),
      ...(settings.priceForecast
        ? {
            priceHistory: {
              timeZone: year.timeZone,
              import: rates(year.importPrice, Math.max(0, t - 14 * DAY), t),
              export: rates(year.exportPrice, Math.max(0, t - 14 * DAY), t),
            },
          }
        : {}),
      soc: (socKwh / battery.capacityKwh) * 100,
      capacityKwh: battery.capacityKwh,
      chargeKw: battery.chargeKw,
      chargeEfficiency: battery.chargeEfficiency,
    });
    solveMs.push(planned.solveMs);
    replanMs.push(performance.now() - began);
    const first = planned.windows[0];
    return first && first.start <= at ? first : undefined;
  };
  let open: ModeWindow | undefined;
  const decide: Decide = (t, socKwh) => {
    const at = year.starts[t] as number;
    if (open && at < open.end && !settings.replan) return actionOf(open, battery);
    const next = plan(t, socKwh);
    // As the engine: a window ending now waits for the re-plan, which may carry it on.
    const followed = open && settings.replan ? replanWindow(open, next, settings.targetStep) : undefined;
    if (followed && followed.kind !== "end") {
      if (followed.kind === "rewrite") rewrites++;
      open = followed.window;
    } else open = next;
    return open ? actionOf(open, battery) : { mode: "eco" };
  };
  return { decide, solveMs, replanMs, rewrites: () => rewrites };
}

function actionOf(window: ModeWindow, battery: Battery): SlotAction {
  if (window.mode === "hold") return { mode: "hold" };
  return { mode: window.mode, targetKwh: (window.targetSoc / 100) * battery.capacityKwh };
}
