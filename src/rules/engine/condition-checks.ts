import type { ConditionCheck } from "../../rules-runtime/index.js";
import { parseClock, wallClock } from "../../time/index.js";
import type { Condition } from "../file/schema.js";
import { DAY_NAMES } from "../file/schema-common.js";
import { inHours } from "../tariffs/index.js";
import type { ConditionContext } from "./live-state.js";

/**
 * A rule's if:, part by part, in words with the value it sees now: what the page shows before a
 * run ("battery SoC above 60%: it is 4%"). conditionHolds() stays the engine's one verdict.
 */
export function conditionChecks(condition: Condition | undefined, context: ConditionContext): ConditionCheck[] {
  if (!condition) return [];
  const checks: ConditionCheck[] = [];
  const { state } = context;
  const number = (text: string, limit: number | undefined, value: number | undefined, unit: string, below: boolean) => {
    if (limit === undefined) return;
    checks.push({
      text: `${text} ${below ? "below" : "above"} ${limit}${unit}`,
      now: value === undefined ? "not known yet" : `it is ${Math.round(value * 10) / 10}${unit}`,
      holds: value === undefined ? undefined : below ? value < limit : value > limit,
    });
  };
  number("battery SoC", condition.battery_soc_below, state.batterySoc, "%", true);
  number("battery SoC", condition.battery_soc_above, state.batterySoc, "%", false);
  number("solar power", condition.pv_power_below, state.pvPower, " W", true);
  number("solar power", condition.pv_power_above, state.pvPower, " W", false);
  number("grid import", condition.grid_import_below, state.gridImport, " W", true);
  number("grid import", condition.grid_import_above, state.gridImport, " W", false);
  if (condition.ev_plugged !== undefined)
    checks.push({
      text: condition.ev_plugged ? "car plugged in" : "car not plugged in",
      now:
        state.evPlugged === undefined ? "not known yet" : state.evPlugged ? "it is plugged in" : "it is not plugged in",
      holds: state.evPlugged === undefined ? undefined : state.evPlugged === condition.ev_plugged,
    });
  if (condition.ev_status !== undefined) {
    const wanted = Array.isArray(condition.ev_status) ? condition.ev_status : [condition.ev_status];
    checks.push({
      text: `charger status ${wanted.join(" or ")}`,
      now: state.evStatus === undefined ? "not known yet" : `it is ${state.evStatus}`,
      holds: state.evStatus === undefined ? undefined : wanted.includes(state.evStatus),
    });
  }
  const wall = wallClock(context.now, context.timeZone);
  const clock = `${String(Math.floor(wall.minutes / 60)).padStart(2, "0")}:${String(wall.minutes % 60).padStart(2, "0")}`;
  if (condition.time !== undefined)
    checks.push({
      text: `between ${condition.time.slice(0, 5)} and ${condition.time.slice(6)} (${context.timeZone})`,
      now: `it is ${clock}`,
      holds: inHours(wall.minutes, parseClock(condition.time.slice(0, 5)), parseClock(condition.time.slice(6))),
    });
  if (condition.days !== undefined) {
    const today = DAY_NAMES[wall.weekday] ?? "mon";
    checks.push({
      text: `on ${condition.days.join(", ")}`,
      now: `it is ${today}`,
      holds: condition.days.includes(today),
    });
  }
  const price = context.importPrice;
  const priced = (limit: number | undefined, below: boolean) => {
    if (limit === undefined) return;
    checks.push({
      text: `import price ${below ? "below" : "above"} ${limit}`,
      now: price === undefined ? "not known yet" : `it is ${price}`,
      holds: price === undefined ? undefined : below ? price < limit : price > limit,
    });
  };
  priced(condition.price_below, true);
  priced(condition.price_above, false);
  return checks;
}
