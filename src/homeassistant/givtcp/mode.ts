import { GIVTCP_MODES, type GivTcpMode } from "./names.js";

/** One change toward a mode: an own switch's key and the payload it takes. */
export interface ModeStep {
  readonly key: string;
  readonly payload: "ON" | "OFF";
}

const isMode = (text: string): text is GivTcpMode => (GIVTCP_MODES as readonly string[]).includes(text);

/**
 * The preset switches a GivTCP mode sets, in the order that never has two discharge presets on at
 * once: what leaves a mode first, then what enters the new one. Steps that already hold are
 * skipped by the control gate; a switch the device does not have is left out when it is to be
 * off (there is nothing to turn off). A device with timed export but no eco switch (the
 * three-phase: it covers the home's demand whenever no timed export runs) is always in eco: Eco is
 * timed export off there, and a mode that needs eco off or Timed Demand is refused.
 */
export function modeSteps(
  payload: string,
  has: (key: string) => boolean,
): { readonly ok: true; readonly steps: readonly ModeStep[] } | { readonly ok: false; readonly message: string } {
  const mode = payload.trim();
  if (!isMode(mode)) {
    return { ok: false, message: `"${payload}" is not a mode; send one of ${GIVTCP_MODES.join(", ")}` };
  }
  if (!has("eco_mode") && !has("timed_export")) return { ok: false, message: "this device has no battery mode to set" };
  const wanted: Record<GivTcpMode, readonly ModeStep[]> = {
    Eco: [
      { key: "timed_export", payload: "OFF" },
      { key: "timed_discharge", payload: "OFF" },
      { key: "eco_mode", payload: "ON" },
    ],
    "Eco (Paused)": [
      { key: "timed_export", payload: "OFF" },
      { key: "timed_discharge", payload: "OFF" },
      { key: "eco_mode", payload: "OFF" },
    ],
    "Timed Demand": [
      { key: "timed_export", payload: "OFF" },
      { key: "timed_discharge", payload: "ON" },
    ],
    "Timed Export": [
      { key: "timed_discharge", payload: "OFF" },
      { key: "timed_export", payload: "ON" },
    ],
  };
  const steps: ModeStep[] = [];
  for (const step of wanted[mode]) {
    if (has(step.key)) steps.push(step);
    else if (step.key === "eco_mode" && step.payload === "OFF")
      return {
        ok: false,
        message: `"${mode}" needs an eco switch, which this inverter has none of: it covers the home's demand whenever no timed export runs; send Eco or Timed Export`,
      };
    else if (step.payload === "ON" && step.key !== "eco_mode")
      return {
        ok: false,
        message: `"${mode}" needs ${step.key}, which this inverter has not; send Eco or Timed Export`,
      };
  }
  return { ok: true, steps };
}
