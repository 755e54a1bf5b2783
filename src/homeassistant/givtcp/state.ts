import type { StateValue } from "../entities/index.js";
import { type GivTcpMode, PAUSE_LABELS } from "./names.js";

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

/** The inverter's own time when last read: the daemon's time moved by the drift measured (ahead positive). */
function inverterTime(state: State, now: number): string | null {
  const drift = state.clock_drift;
  if (typeof drift !== "number") return null;
  return new Date(Math.floor(now / 1000) * 1000 + drift * 1000).toISOString().replace(".000Z", "+00:00");
}

function pauseMode(state: State): string | null {
  const own = state.pause_battery_mode;
  return Object.entries(PAUSE_LABELS).find(([, label]) => label === own)?.[0] ?? null;
}

/** The values GivTCP's names read that the daemon's own keys do not hold as they are, under `givtcp_<name>`. */
export function givtcpState(state: State, now: number): Record<string, StateValue> {
  return {
    givtcp_mode: givtcpMode(state),
    givtcp_soc_kwh: socKwh(state),
    givtcp_invertor_time: inverterTime(state, now),
    givtcp_battery_pause_mode: pauseMode(state),
  };
}
