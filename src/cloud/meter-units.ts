import { type Measurement, meterUnitName } from "./schemas/ev-charger.js";

/*
 * Charger meter records carry a unit code per measurement (METER_UNITS: 0 Wh, 1 kWh, 4 W,
 * 5 kW, ...), or null where the unit is "implied". The code is honoured whenever it is given.
 *
 * What null means is not written down anywhere:
 * - Energy: OCPP 1.6, which the chargers speak, defines the default unit of an energy
 *   measurand as Wh, and the public clients of this service divide the energy registers by
 *   1000 to get kWh. So an energy value without a unit is taken as Wh.
 * - Power: OCPP 1.6 defines no default for power. The only evidence is how public clients of
 *   this service read real chargers: they take power values as kW whatever the unit field
 *   says (real-responses README, moderate confidence). So a power value without a unit is
 *   taken as kW. A charger that sends watts without saying so would read 1000 times too high;
 *   one that names its unit is always read right.
 */

/** Units assumed when a measurement has none; see above. */
export const IMPLIED_ENERGY_UNIT = "Wh";
export const IMPLIED_POWER_UNIT = "kW";

const WH = 0;
const KWH = 1;
const W = 4;
const KW = 5;

/** Floating point noise from scaling (7.2 * 1000 = 7200.000000000001) is rounded away. */
const clean = (value: number): number => Number.parseFloat(value.toPrecision(12));

type Reading = Pick<Measurement, "value" | "unit">;

/** An energy measurement in kWh; null when its unit is not an energy unit (a varh reading, say). */
export function toKwh(measurement: Reading): number | null {
  const { value, unit } = measurement;
  if (unit === KWH) return value;
  if (unit === WH || unit === null || unit === undefined) return clean(value / 1000);
  return null;
}

/** A power measurement in W; null when its unit is not a power unit. */
export function toW(measurement: Reading): number | null {
  const { value, unit } = measurement;
  if (unit === W) return value;
  if (unit === KW || unit === null || unit === undefined) return clean(value * 1000);
  return null;
}

/** Active energy measurands (OCPP 1.6): export and import registers and intervals. */
const ACTIVE_ENERGY = new Set([3, 4, 7, 8]);
/** Active power measurands: export, import and offered. */
const ACTIVE_POWER = new Set([12, 13, 15]);

/**
 * A measurement in the unit the daemon keeps it in: active energies in kWh, active powers in W;
 * anything else as sent, under its own unit's name (or null when the record names none).
 * A value whose unit does not fit its measurand is kept as sent, so nothing is lost.
 */
export function normalised(measurement: Reading & Pick<Measurement, "measurand">): {
  value: number;
  unit: string | null;
} {
  if (ACTIVE_ENERGY.has(measurement.measurand)) {
    const kwh = toKwh(measurement);
    if (kwh !== null) return { value: kwh, unit: "kWh" };
  }
  if (ACTIVE_POWER.has(measurement.measurand)) {
    const w = toW(measurement);
    if (w !== null) return { value: w, unit: "W" };
  }
  return { value: measurement.value, unit: meterUnitName(measurement.unit) ?? null };
}
