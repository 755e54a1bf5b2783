import { parseClock } from "../../time/index.js";

const SLOT_MINUTES = 30;
const DAY_MINUTES = 24 * 60;

/**
 * A tariff's prices are per half-hour, read at :00 and :30: zone hours between those would be
 * rounded silently (08:01-08:04 would price nothing, 20:00-20:02 a whole half-hour). The problem
 * with hours off the grid, naming the nearest hours on it; undefined when on it.
 */
export function offHalfHourGrid(hours: string): string | undefined {
  // Hours in another shape are reported as such by the schema.
  if (!/^\d\d:\d\d-\d\d:\d\d$/.test(hours)) return undefined;
  const from = parseClock(hours.slice(0, 5));
  const to = parseClock(hours.slice(6));
  if (from % SLOT_MINUTES === 0 && to % SLOT_MINUTES === 0) return undefined;
  const start = nearestSlot(from) % DAY_MINUTES;
  let end = nearestSlot(to);
  // Rounded onto one instant, the zone would cover all day or nothing: keep the half-hour it touches.
  if (end % DAY_MINUTES === start) end = start + SLOT_MINUTES;
  return `"${hours}" is not on the tariff's half-hour grid (prices change only at :00 and :30): use ${clockText(start)}-${clockText(end)}`;
}

function nearestSlot(minutes: number): number {
  return Math.round(minutes / SLOT_MINUTES) * SLOT_MINUTES;
}

/** "HH:MM"; the end of the day is "24:00". */
function clockText(minutes: number): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}
