import {
  type Battery,
  forecastLoad,
  type HalfHourSample,
  KeptForecast,
  PRICE_FORECAST,
  planAhead,
} from "../optimiser/index.js";
import { learnedSolar, type SolarForecaster } from "./learned-solar.js";
import type { HalfHourSeries } from "./series.js";
import { seriesSamples } from "./series-samples.js";
import type { Decide } from "./simulate.js";
import type { SlotClock } from "./slot-clocks.js";

/*
 * Policy 5: the optimiser as model-predictive control. Every half-hour it plans the next
 * `horizon` slots from what it could know then, and the first slot's mode is what the inverter
 * does; the real load and solar then decide what happens. It sees:
 * - prices: the published ones (to 23:00 UK time, the next day's from 16:00), and beyond them a
 *   forecast learned from the published prices only (forecastSeries, weekday-blind);
 * - load and solar: forecasts from the past 28 and 14 days of the house (forecastLoad/Solar);
 * - the value of energy left at the horizon's end: what it saves when it later serves the house
 *   instead of the dearest part of the forecast import, after discharge losses (see terminalValue).
 */

export interface MpcSettings {
  readonly horizon: number;
  readonly changeCost: number;
  readonly socStepKwh: number;
  /**
   * Beyond the published prices, a forecast of them; false plans only as far as prices are
   * published, as the daemon's optimise rule did before it used its tariffs' price history.
   */
  readonly forecastPrices: boolean;
}

export interface MpcRun {
  readonly decide: Decide;
  /** Solve time of each re-plan, ms. */
  readonly solveMs: number[];
}

export function mpc(
  year: HalfHourSeries,
  clocks: readonly SlotClock[],
  battery: Battery,
  settings: MpcSettings,
  solarForecast: SolarForecaster = learnedSolar(year),
): MpcRun {
  const loadSamples = seriesSamples(year, "load");
  const importSamples = seriesSamples(year, "importPrice");
  const exportSamples = seriesSamples(year, "exportPrice");
  const solveMs: number[] = [];
  const DAY = 48;
  // Each side's forecast past the published prices, kept until more are published.
  const forecasts = { import: new KeptForecast(), export: new KeptForecast() };
  const decide: Decide = (t, socKwh, mode) => {
    const slots = Math.min(settings.horizon, year.starts.length - t);
    const from = year.starts[t] as number;
    const known = (clocks[t] as SlotClock).knownUntil;
    const prices = (series: readonly number[], past: readonly HalfHourSample[], kept: KeptForecast): number[] => {
      const out = series.slice(t, Math.min(known, t + slots));
      if (out.length < slots && settings.forecastPrices)
        out.push(
          ...kept.of(past.slice(Math.max(0, known - 14 * DAY), known), {
            ...PRICE_FORECAST,
            from: year.starts[known] as number,
            timeZone: year.timeZone,
            slots: slots - out.length,
          }),
        );
      return out;
    };
    const importPrices = prices(year.importPrice, importSamples, forecasts.import);
    const exportPrices = prices(year.exportPrice, exportSamples, forecasts.export);
    const options = { from, timeZone: year.timeZone, slots };
    const load = forecastLoad(loadSamples.slice(Math.max(0, t - 28 * DAY), t), options);
    const solar = solarForecast(t, slots);
    const schedule = planAhead({
      importPrices,
      exportPrices,
      load,
      solar,
      battery,
      socKwh,
      mode,
      changeCost: settings.changeCost,
      socStepKwh: settings.socStepKwh,
    });
    solveMs.push(schedule.solveMs);
    const first = schedule.slots[0];
    if (!first) return { mode: "eco" };
    return first.targetKwh === undefined ? { mode: first.mode } : { mode: first.mode, targetKwh: first.targetKwh };
  };
  return { decide, solveMs };
}
