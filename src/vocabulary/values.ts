/**
 * A device's state in the daemon's own words: its values under the state keys documented in
 * docs/entities.md (`battery_soc`, `grid_power`, `today_solar_energy`), in the daemon's units and
 * signs (W, kWh, %, °C; grid export positive, battery discharge positive). Every path reads into
 * this shape; null is a value the device did not give.
 */
export type StateValue = string | number | boolean | null;
export type StateValues = Record<string, StateValue>;

/** Rounds away binary noise from unit conversions (0.1 + 0.2): to `places` decimals, 3 by default. */
export function round(value: number, places = 3): number {
  const factor = 10 ** places;
  return Math.round(value * factor) / factor;
}

/** The highest N among keys such as `solar_array_N_power` or `meter_N_power`; 0 when there is none. */
export function highestNumbered(values: Readonly<StateValues>, pattern: RegExp): number {
  let highest = 0;
  for (const key of Object.keys(values)) {
    const number = Number(pattern.exec(key)?.[1]);
    if (Number.isInteger(number) && number > highest) highest = number;
  }
  return highest;
}
