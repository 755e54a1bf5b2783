import { DAY_MS, forecastLoad, forecastSolar } from "../optimiser/index.js";
import type { History } from "../store/index.js";
import { SLOT_MS } from "../time/local-time.js";
import { readHouseHistory } from "./house-history.js";
import type { HouseForecast } from "./planners/optimise-windows.js";

/** How far back the forecasts learn from. */
const LEARN_DAYS = 28;

/**
 * The house's consumption and solar for the next `slots` half-hours, learned from the store's
 * history of the last four weeks (the method is in optimiser/forecast.ts), with how many days
 * it learned from: 0 when the store has nothing yet.
 */
export function houseForecast(
  history: Pick<History, "query">,
  options: { readonly now: number; readonly timeZone: string; readonly slots?: number },
): HouseForecast {
  const from = Math.floor(options.now / SLOT_MS) * SLOT_MS;
  const past = readHouseHistory(history, { from: from - LEARN_DAYS * DAY_MS, to: from, timeZone: options.timeZone });
  const ahead = { from, timeZone: options.timeZone, slots: options.slots ?? 96 };
  return {
    from,
    load: forecastLoad(past.load, ahead),
    solar: forecastSolar(past.solar, ahead),
    days: past.days,
  };
}
