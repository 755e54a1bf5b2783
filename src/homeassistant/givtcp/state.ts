import type { DeviceState } from "../../telemetry/index.js";
import { PV_INPUT_POWER, TODAY_PV_INPUT_ENERGY } from "../../vocabulary/index.js";
import type { StateValue } from "../entities/index.js";
import { GIVTCP_NAMES, type GivTcpMode, NOT_GIVEN, PAUSE_LABELS } from "./names.js";

type State = Readonly<Record<string, StateValue>>;

/**
 * GivTCP's mode, as GivTCP reads it from the registers: discharge enabled in storage mode is
 * Timed Export, in eco mode Timed Demand; eco without discharge is Eco, and neither (the battery
 * only charges) Eco (Paused). A device with no eco switch at all (`eco_mode` absent: the
 * three-phase, which covers the home's demand whenever no timed export runs) is Eco while its
 * timed export is off. Null while the presets are not known.
 */
export function givtcpMode(state: State): GivTcpMode | null {
  if (state.timed_export === "ON") return "Timed Export";
  if (state.timed_discharge === "ON") return "Timed Demand";
  if (state.eco_mode === "ON") return "Eco";
  if (state.eco_mode === "OFF") return "Eco (Paused)";
  if (state.eco_mode === undefined && state.timed_export === "OFF") return "Eco";
  return null;
}

function socKwh(state: State): number | null {
  const { battery_soc: soc, battery_capacity: capacity } = state;
  if (typeof soc !== "number" || typeof capacity !== "number") return null;
  return Math.round(soc * capacity) / 100;
}

/** GivTCP's Invertor_Time form, which Predbat parses (`%Y-%m-%dT%H:%M:%S%z`): whole seconds, an offset. */
export function givtcpTimestamp(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "+00:00");
}

const INVERTER_TIME = "givtcp_invertor_time";

/** Keys a reading carries only for GivTCP's names (an AC-coupled unit's PV input, 0): not in the own naming's state. */
const GIVTCP_ONLY = [PV_INPUT_POWER, TODAY_PV_INPUT_ENERGY] as const;

/** A reading's values as the own naming's state takes them: without those only GivTCP's names read. */
export function withoutGivtcpOnly(values: Readonly<Record<string, StateValue>>): Readonly<Record<string, StateValue>> {
  if (!GIVTCP_ONLY.some((key) => key in values)) return values;
  const own = { ...values };
  for (const key of GIVTCP_ONLY) delete own[key];
  return own;
}

/**
 * What a reading gives GivTCP's names beyond its values: over the cloud, invertor_time is the
 * cloud's stamp of its latest reading, as Predbat's own cloud client takes it for its
 * inverter_time; null when the cloud gives none, so the entity goes unavailable rather than
 * showing an old stamp. The LAN's readings give nothing here: there the clock is read (drift).
 */
export function givtcpReadingValues(reading: DeviceState): Record<string, StateValue> {
  if (reading.kind !== "inverter.live" || reading.cloudTime === undefined) return {};
  return { [INVERTER_TIME]: reading.cloudTime === null ? null : givtcpTimestamp(reading.cloudTime) };
}

/**
 * The inverter's time: over the LAN, its own clock when last read (the daemon's time moved by
 * the drift measured, ahead positive); over the cloud, the cloud's stamp as it came.
 */
function inverterTime(state: State, now: number): string | null {
  const drift = state.clock_drift;
  if (typeof drift === "number") return givtcpTimestamp(now + drift * 1000);
  const stamped = state[INVERTER_TIME];
  return typeof stamped === "string" ? stamped : null;
}

function pauseMode(state: State): string | null {
  const own = state.pause_battery_mode;
  return Object.entries(PAUSE_LABELS).find(([, label]) => label === own)?.[0] ?? null;
}

/** The own keys a sensor GivTCP names reads its value from, whichever the device has. */
function ownKeysOf(source: (typeof GIVTCP_NAMES)[number]["source"]): readonly string[] {
  if (source.kind === "alias") return source.keys;
  if (source.kind === "pv") return [source.own, source.input];
  return [];
}

/**
 * The sensors GivTCP names whose value the state holds under none of its own keys (or only as null) (the path
 * cannot give it: discovery announces them unavailable, ./discovery.ts), as null under
 * `givtcp_<name>`, and why under `givtcp_not_given` (their attributes).
 */
function notGiven(state: State): Record<string, StateValue> {
  const absent = GIVTCP_NAMES.filter((name) => {
    const keys = ownKeysOf(name.source);
    return (
      name.component === "sensor" &&
      keys.length > 0 &&
      keys.every((key) => state[key] === undefined || state[key] === null)
    );
  });
  if (absent.length === 0) return {};
  return {
    ...Object.fromEntries(absent.map((name) => [`givtcp_${name.name}`, null])),
    givtcp_not_given: NOT_GIVEN,
  };
}

/** The values GivTCP's names read that the daemon's own keys do not hold as they are, under `givtcp_<name>`. */
export function givtcpState(state: State, now: number): Record<string, StateValue> {
  return {
    givtcp_mode: givtcpMode(state),
    givtcp_soc_kwh: socKwh(state),
    givtcp_invertor_time: inverterTime(state, now),
    givtcp_battery_pause_mode: pauseMode(state),
    ...notGiven(state),
  };
}
