import type { ChargerSession, StateValues } from "../vocabulary/index.js";
import type { LiveCar } from "./api-types.js";

/** What an optimise rule wants of a car, its topics already read (the composition root knows the rules file). */
export interface CarTarget {
  /** The charger's uuid; undefined: the first charger. */
  readonly charger: string | undefined;
  /** Local time, "07:30". */
  readonly by: string;
  readonly soc: number | null;
  readonly kwh: number | null;
  /** The car's own SoC from the rule's soc_topic, when it has had one. */
  readonly carSoc: number | null;
}

/** One charger's latest readings. */
export interface ChargerReadings {
  readonly status?: StateValues;
  readonly meter?: StateValues;
  readonly session?: ChargerSession | undefined;
}

/** OCPP's statuses that mean a car is at the connector, and the one that means none is. */
const PLUGGED = new Set(["Preparing", "Charging", "SuspendedEVSE", "SuspendedEV", "Finishing"]);
const UNPLUGGED = new Set(["Available"]);

/** The charger's own modes in evcc's words, where one means the same: solar only, solar with a minimum, full power. */
const EVCC_MODES: Readonly<Record<string, "PV" | "Min+PV" | "Fast">> = {
  SuperEco: "PV",
  Eco: "Min+PV",
  EcoPlus: "Min+PV",
  Boost: "Fast",
};

const num = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);
const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

/** kWh of the session: the register now (open) or at its stop, less the register at its start. */
function sessionKwh(session: ChargerSession | undefined, meter: StateValues | undefined): number | null {
  if (!session) return null;
  const end = session.open ? num(meter?.energy) : session.meterStopKwh;
  return end === null ? null : Math.max(0, Math.round((end - session.meterStartKwh) * 100) / 100);
}

/** The car card of one charger. */
export function liveCar(input: {
  readonly id: string;
  readonly name: string;
  readonly readings: ChargerReadings;
  /** The rules' word on whether a car is plugged in (the charger's status as they track it). */
  readonly plugged: boolean | null | undefined;
  readonly target: CarTarget | undefined;
  readonly mode: string | null;
  readonly path: LiveCar["path"];
}): LiveCar {
  const { readings, target, mode } = input;
  const status = text(readings.status?.status) ?? text(readings.meter?.status);
  const plugged =
    status && PLUGGED.has(status) ? true : status && UNPLUGGED.has(status) ? false : (input.plugged ?? null);
  return {
    id: input.id,
    name: input.name,
    status,
    plugged,
    power: num(readings.meter?.power),
    soc: num(readings.meter?.soc) ?? target?.carSoc ?? null,
    sessionKwh: sessionKwh(readings.session, readings.meter),
    sessionOpen: readings.session ? readings.session.open : null,
    target: target ? { soc: target.soc, kwh: target.kwh, by: target.by } : null,
    mode: mode === null ? null : { own: mode, evcc: EVCC_MODES[mode] ?? null },
    path: input.path,
  };
}
