import type { SlotClock } from "./clock.js";

/**
 * A commuter's car, stated rather than measured: away on weekdays from 07:30 to 18:00, 40 km a
 * day at 0.18 kWh/km (7.2 kWh a day, at the wall), a 7 kW charger, home at 18:00 needing the
 * day's energy back by the next departure (Friday's by Monday 07:30). The figures' reasoning is
 * in CAR_PROFILE_TEXT, which the bench prints.
 */
export const CAR = {
  departMinutes: 7 * 60 + 30,
  arriveMinutes: 18 * 60,
  kmPerDay: 40,
  kwhPerKm: 0.18,
  chargerKw: 7,
} as const;

export const CAR_PROFILE_TEXT = [
  `away ${clock(CAR.departMinutes)}-${clock(CAR.arriveMinutes)} Monday to Friday, home at the weekend; ${CAR.kmPerDay} km a commuting day at ${CAR.kwhPerKm} kWh/km = ${(CAR.kmPerDay * CAR.kwhPerKm).toFixed(1)} kWh a day at the wall`,
  "reasoning: the Department for Transport's National Travel Survey puts a car's average at about 7,000 miles (11,000 km) a year, 30 km a day; a commuter's weekday is taken a little above it; 0.18 kWh/km is a mid-size EV's real-world use of about 0.16 kWh/km plus about 10% charging losses",
  `charger ${CAR.chargerKw} kW (a single-phase 32 A wallbox), on at full power or off; the car takes what it needs and stops`,
  "each arrival adds the day's energy to what the car still needs; the deadline is the next departure; energy not delivered by then is reported as short",
];

function clock(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

export interface CarYear {
  /** Per slot: the car is at home, plugged in. */
  readonly plugged: readonly boolean[];
  /** Per slot: energy the car adds to its need when it arrives at this slot's start, kWh. */
  readonly arrives: readonly number[];
  /** Per slot: the next departure's slot (the car's deadline), or the year's end. */
  readonly deadline: readonly number[];
  /** Per slot: the car leaves at this slot's start. */
  readonly departs: readonly boolean[];
}

export function carYear(clocks: readonly SlotClock[]): CarYear {
  const slots = clocks.length;
  const weekday = (c: SlotClock) => c.weekday <= 4;
  const away = (c: SlotClock) => weekday(c) && c.minutes >= CAR.departMinutes && c.minutes < CAR.arriveMinutes;
  const plugged = clocks.map((c) => !away(c));
  const arrives = clocks.map((c) => (weekday(c) && c.minutes === CAR.arriveMinutes ? CAR.kmPerDay * CAR.kwhPerKm : 0));
  const departs = clocks.map((c) => weekday(c) && c.minutes === CAR.departMinutes);
  const deadline = new Array<number>(slots).fill(slots);
  let next = slots;
  for (let t = slots - 1; t >= 0; t--) {
    if (departs[t]) next = t;
    deadline[t] = next;
  }
  return { plugged, arrives, deadline, departs };
}
