import type { ChargerReading, EvcState } from "../../evc/index.js";
import { type KnownEvChargerStatus, round, type StateValues } from "../../vocabulary/index.js";

/*
 * What the charger's Modbus registers say, as the readings every path gives of an EV charger
 * (src/vocabulary/charger.ts): the same state keys and units as the cloud's and OCPP's, so Home
 * Assistant's entities are the same whichever path carries the charger.
 */

/**
 * GivTCP's charging states as OCPP's connector statuses. "End of Charging" is read as Finishing:
 * the charge is over with the car still plugged in, which OCPP says the same way.
 */
const STATUS_OF: Readonly<Record<EvcState, KnownEvChargerStatus | null>> = {
  Unknown: null,
  Idle: "Available",
  Connected: "Preparing",
  Starting: "Preparing",
  Charging: "Charging",
  "Startup Failure": "Faulted",
  "End of Charging": "Finishing",
  "System Failure": "Faulted",
  Scheduled: "SuspendedEVSE",
  Updating: "Unavailable",
  "Unstable CP": "Faulted",
};

/** The status and online flag: a charger that answered is online. */
export function modbusStatusValues(reading: ChargerReading): StateValues {
  return { status: STATUS_OF[reading.state], online: "ON" };
}

/** The meter's values; the current is the highest phase's, as OCPP's adapter gives it, and the limit in force is the current offered. */
export function modbusMeterValues(reading: ChargerReading): StateValues {
  const voltages = reading.voltageV.filter((v) => v > 0);
  return {
    power: round(reading.powerW),
    energy: round(reading.energyKwh),
    current: Math.max(...reading.currentA),
    voltage: voltages.length > 0 ? (voltages[0] ?? null) : null,
    current_offered: reading.currentLimitA,
  };
}

/** The session under way as the registers tell it: none when they show no energy and no time. */
export function modbusOpenSession(
  reading: ChargerReading,
  at: number,
): { readonly startedAtMs: number; readonly meterStartKwh: number } | undefined {
  if (reading.sessionDurationS === 0 && reading.sessionEnergyKwh === 0) return undefined;
  return {
    startedAtMs: at - reading.sessionDurationS * 1000,
    meterStartKwh: round(reading.energyKwh - reading.sessionEnergyKwh),
  };
}
