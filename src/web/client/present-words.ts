import type { FlowFigures } from "../api-types.js";
import { watts } from "./dom.js";
import { IDLE_W } from "./flow.js";

const on = (value: number | null): value is number => value !== null && Math.abs(value) >= IDLE_W;
const size = (value: number): string => watts(Math.abs(value));

/** Where the battery's charge comes from, by what solar has left over after the home. */
function chargeSource(figures: FlowFigures, charge: number): string {
  const surplus = (on(figures.solar) ? figures.solar : 0) - (figures.home ?? 0);
  if (surplus >= charge * 0.9) return " from the solar surplus";
  if (surplus <= 0) return on(figures.grid) && figures.grid < 0 ? " from the grid" : "";
  return on(figures.grid) && figures.grid < 0 ? " from solar and the grid" : " from solar";
}

/**
 * What the house does at this moment, from the live reading alone (never a plan): e.g. "Solar
 * makes 2.10 kW and the home uses 1.20 kW; the battery charges at 640 W from the solar surplus;
 * 260 W goes to the grid." No figure carries a sign: the verbs say the direction.
 */
export function presentSentence(figures: FlowFigures): string {
  if ([figures.solar, figures.battery, figures.grid, figures.home].every((value) => value === null))
    return "No reading yet.";
  const first: string[] = [];
  if (figures.solar !== null)
    first.push(on(figures.solar) && figures.solar > 0 ? `solar makes ${size(figures.solar)}` : "no solar");
  if (figures.home !== null) first.push(`the home uses ${size(figures.home)}`);
  const parts = first.length ? [first.join(" and ")] : [];
  if (figures.battery !== null) {
    if (!on(figures.battery)) parts.push("the battery is idle");
    else if (figures.battery < 0)
      parts.push(`the battery charges at ${size(figures.battery)}${chargeSource(figures, -figures.battery)}`);
    else parts.push(`the battery discharges ${size(figures.battery)}`);
  }
  if (figures.grid !== null) {
    if (!on(figures.grid)) parts.push("nothing goes to or comes from the grid");
    else if (figures.grid > 0) parts.push(`${size(figures.grid)} goes to the grid`);
    else parts.push(`${size(figures.grid)} comes from the grid`);
  }
  if (on(figures.ev) && figures.ev > 0) parts.push(`the car charges at ${size(figures.ev)}`);
  const text = parts.join("; ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}
