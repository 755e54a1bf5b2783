import type { Mode, SlotAction } from "../../src/optimiser/index.js";
import { planWindow } from "../../src/rules/planners/window-planner.js";
import type { Rate } from "../../src/rules/tariffs/tariff.js";
import { HOUR_MS, SLOT_MS } from "../../src/time/local-time.js";
import type { SlotClock } from "./clock.js";
import type { Year } from "./data.js";
import type { Decide } from "./simulate.js";

/*
 * Policy 4: what config/rules.example.yaml does to the battery, with its tariffs swapped for the
 * year's Agile import and Outgoing export (its commented `type: agile` block). The battery rules:
 * - overnight-top-up (priority 10): the cheapest continuous 3 h before 07:00, planned with the
 *   repo's planWindow at every half-hour from the prices published so far; once a window opens it
 *   is kept (as the engine keeps an opened period). When it opens with SoC below 90%: timed charge
 *   to 100% for the window, then back (restore after_window).
 * - evening-export: the dearest continuous 2 h of export between 16:00 and 20:00 (planWindow,
 *   prefer dearest); on weekdays with SoC above 60% when it opens: timed export down to 20%.
 * - cheap-grid: in every half-hour whose import price is below 0.10 GBP: pause battery mode 2
 *   (pause discharge: the "hold" mode).
 * Everything else leaves the inverter in eco. Left out, as having no battery effect: the car
 * rules, the alert, the solar-to-car rule, the weekly snapshot and its setting writes (reserve
 * 10%: the bench's reserve already holds), and the disabled battery-by-morning rule.
 */

interface Kept {
  readonly start: number;
  readonly end: number;
  readonly act: boolean;
}

/**
 * The rates the engine's tariff gives: published prices, and after them the example's Agile
 * fallback (0.085 GBP in 00:30-05:30, else 0.27), marked estimated.
 */
function rates(
  year: Year,
  clocks: readonly SlotClock[],
  prices: readonly number[],
  from: number,
  to: number,
  knownUntil: number,
): Rate[] {
  const out: Rate[] = [];
  for (let t = from; t < to; t++) {
    const start = year.starts[t] as number;
    if (t < knownUntil) {
      out.push({ start, end: start + SLOT_MS, price: prices[t] as number, estimated: false });
      continue;
    }
    const minutes = (clocks[t] as SlotClock).minutes;
    const price = minutes >= 30 && minutes < 5 * 60 + 30 ? 0.085 : 0.27;
    out.push({ start, end: start + SLOT_MS, price, estimated: true });
  }
  return out;
}

/** The first slot at or after t whose local clock reads `minutes` (today's or tomorrow's). */
function nextAt(clocks: readonly SlotClock[], t: number, minutes: number): number {
  for (let k = t + 1; k < clocks.length; k++) if ((clocks[k] as SlotClock).minutes === minutes) return k;
  return clocks.length;
}

export function rulesExample(year: Year, clocks: readonly SlotClock[], capacityKwh: number): Decide {
  let charge: Kept | undefined;
  let exportWindow: Kept | undefined;
  // The deadline of the period whose window has opened: the engine plans no second one for it.
  let chargedFor = -1;
  let exportedFor = -1;
  const percent = (soc: number): number => (soc / capacityKwh) * 100;
  return (t, soc): SlotAction => {
    const clock = clocks[t] as SlotClock;
    const now = year.starts[t] as number;
    // overnight-top-up: plan until a window opens; keep it until it ends.
    if (!charge || t >= charge.end) {
      charge = undefined;
      const deadline = nextAt(clocks, t, 7 * 60);
      const plan =
        deadline === chargedFor
          ? undefined
          : planWindow({
              now,
              deadline: (year.starts[0] as number) + deadline * SLOT_MS,
              rates: rates(year, clocks, year.importPrice, t, deadline, clock.knownUntil),
              durationMs: 3 * HOUR_MS,
              split: false,
            });
      const first = plan?.windows[0];
      if (first && first.start <= now) {
        chargedFor = deadline;
        charge = { start: t, end: t + Math.round((first.end - first.start) / SLOT_MS), act: percent(soc) < 90 };
      }
    }
    if (charge?.act && t < charge.end) return { mode: "charge" };
    // evening-export: between 16:00 and 20:00, the dearest 2 h of export.
    if (clock.minutes >= 16 * 60 && clock.minutes < 20 * 60 && (!exportWindow || t >= exportWindow.end)) {
      exportWindow = undefined;
      const deadline = nextAt(clocks, t, 20 * 60);
      const plan =
        deadline === exportedFor
          ? undefined
          : planWindow({
              now,
              deadline: (year.starts[0] as number) + deadline * SLOT_MS,
              rates: rates(year, clocks, year.exportPrice, t, deadline, clock.knownUntil),
              durationMs: 2 * HOUR_MS,
              split: false,
              prefer: "dearest",
            });
      const first = plan?.windows[0];
      if (first && first.start <= now) {
        exportedFor = deadline;
        const weekday = clock.weekday <= 4;
        exportWindow = {
          start: t,
          end: t + Math.round((first.end - first.start) / SLOT_MS),
          act: weekday && percent(soc) > 60,
        };
      }
    }
    if (exportWindow?.act && t < exportWindow.end) return { mode: "export", targetKwh: 0.2 * capacityKwh };
    const mode: Mode = (year.importPrice[t] as number) < 0.1 ? "hold" : "eco";
    return { mode };
  };
}
