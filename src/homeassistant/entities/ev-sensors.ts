import { type ChargerSession, EV_CHARGER_STATUSES } from "../../vocabulary/index.js";
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
import { num, round } from "./values.js";

const diagnostic = { entity_category: "diagnostic" } as const;

/** The meter's entities: their keys are the state keys every path reads the meter into (sources/cloud/ev-readings.ts). */
const METER: readonly EntityDef[] = [
  power("power", "Charging power", { icon: "mdi:ev-plug-type2" }),
  { ...energy("energy", "Energy delivered", { icon: "mdi:counter" }), counter: "lifetime" },
  current("current", "Charging current"),
  voltage("voltage", "Voltage"),
  temperature("temperature", "Temperature", diagnostic),
  batteryLevel("soc", "Car battery level"),
  current("current_offered", "Current offered", diagnostic),
  power("power_offered", "Power offered", diagnostic),
  frequency("frequency", "Frequency", diagnostic),
];

export function evSensorEntities(): EntityDef[] {
  return [
    enumSensor("status", "Status", EV_CHARGER_STATUSES, { icon: "mdi:ev-station" }),
    binary("online", "Online", "connectivity", diagnostic),
    ...METER.map(reported),
    energy("session_energy", "Session energy", { icon: "mdi:battery-charging-high" }),
    timestamp("session_started_at", "Session started"),
  ];
}

/**
 * The session's energy: meter_stop - meter_start once stopped; while open, the import register
 * last seen (`energy` in the device's state) - meter_start.
 */
export function evSessionPatch(
  session: ChargerSession | undefined,
  state: Readonly<Record<string, StateValue>> | undefined,
): StateValues {
  if (!session) return { session_energy: null, session_started_at: null };
  const end = session.open ? num(state?.energy) : session.meterStopKwh;
  return {
    session_energy: end === null ? null : Math.max(0, round(end - session.meterStartKwh)),
    session_started_at: session.startedAt,
  };
}
