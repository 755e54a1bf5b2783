import {
  type ChargerMeterRecord,
  type ChargingSession,
  EV_CHARGER_STATUSES,
  type EvCharger,
  isSessionOpen,
  toKwh,
  toW,
} from "../../cloud/index.js";
import {
  batteryLevel,
  binary,
  current,
  energy,
  enumSensor,
  frequency,
  power,
  reported,
  temperature,
  timestamp,
  voltage,
} from "./sensors.js";
import type { EntityDef, StateValue, StateValues } from "./types.js";
import { num, onOff, option, round, zonedTimestamp } from "./values.js";

const diagnostic = { entity_category: "diagnostic" } as const;

type Convert = (value: number, unit: number | null | undefined) => number | null;

/** Energy and power by the record's unit code; what a missing unit means is in cloud/meter-units. */
const kwh: Convert = (value, unit) => {
  const converted = toKwh({ value, unit });
  return converted === null ? null : round(converted);
};
const watts: Convert = (value, unit) => {
  const converted = toW({ value, unit });
  return converted === null ? null : round(converted);
};
/** A, V, Celsius and Percent are taken as implied when a record leaves the unit out. */
const toCelsius: Convert = (value, unit) =>
  unit === 12 || unit == null
    ? value
    : unit === 13
      ? round(((value - 32) * 5) / 9, 1)
      : unit === 14
        ? round(value - 273.15, 1)
        : null;
const as =
  (expected: number): Convert =>
  (value, unit) =>
    unit === expected || unit == null ? value : null;

interface MeasurandField {
  readonly measurand: number;
  readonly entity: EntityDef;
  readonly convert: Convert;
}

const MEASURANDS: readonly MeasurandField[] = [
  { measurand: 13, entity: power("power", "Charging power", { icon: "mdi:ev-plug-type2" }), convert: watts },
  {
    measurand: 4,
    entity: { ...energy("energy", "Energy delivered", { icon: "mdi:counter" }), counter: "lifetime" },
    convert: kwh,
  },
  { measurand: 1, entity: current("current", "Charging current"), convert: as(10) },
  { measurand: 21, entity: voltage("voltage", "Voltage"), convert: as(11) },
  { measurand: 20, entity: temperature("temperature", "Temperature", diagnostic), convert: toCelsius },
  { measurand: 19, entity: batteryLevel("soc", "Car battery level"), convert: as(15) },
  { measurand: 2, entity: current("current_offered", "Current offered", diagnostic), convert: as(10) },
  { measurand: 15, entity: power("power_offered", "Power offered", diagnostic), convert: watts },
  { measurand: 11, entity: frequency("frequency", "Frequency", diagnostic), convert: (value) => value },
];

export function evSensorEntities(): EntityDef[] {
  return [
    enumSensor("status", "Status", EV_CHARGER_STATUSES, { icon: "mdi:ev-station" }),
    binary("online", "Online", "connectivity", diagnostic),
    ...MEASURANDS.map((field) => reported(field.entity)),
    energy("session_energy", "Session energy", { icon: "mdi:battery-charging-high" }),
    timestamp("session_started_at", "Session started"),
  ];
}

/** A status outside OCPP's list reads as unknown, since Home Assistant refuses it in an enum. */
export function evStatusPatch(data: EvCharger): StateValues {
  return { status: option(data.status, EV_CHARGER_STATUSES), online: onOff(data.online) };
}

/** The first value of each measurand (a three-phase charger may send one per phase). */
export function evMeterPatch(record: ChargerMeterRecord): StateValues {
  const values: StateValues = {};
  for (const field of MEASURANDS) {
    const measurement = record.measurements.find((one) => one.measurand === field.measurand);
    if (measurement) values[field.entity.key] = field.convert(measurement.value, measurement.unit);
  }
  return values;
}

/**
 * The session's energy: meter_stop - meter_start once stopped; while open, the import register
 * last seen (`energy` in the device's state) - meter_start.
 */
export function evSessionPatch(
  session: ChargingSession | undefined,
  state: Readonly<Record<string, StateValue>> | undefined,
): StateValues {
  if (!session) return { session_energy: null, session_started_at: null };
  const end = isSessionOpen(session) ? num(state?.energy) : num(session.meter_stop);
  return {
    session_energy: end === null ? null : Math.max(0, round(end - session.meter_start)),
    session_started_at: zonedTimestamp(session.started_at),
  };
}
