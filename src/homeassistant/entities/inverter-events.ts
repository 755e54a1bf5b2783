import type { InverterFault } from "../../vocabulary/index.js";
import { binary, text, timestamp } from "./sensors.js";
import type { EntityDef, StateValues } from "./types.js";

/** Home Assistant refuses a sensor state longer than this. */
const MAX_STATE_LENGTH = 255;
/** What the active faults read while there are none: a word, not an unknown state. */
export const NO_FAULTS = "None";

export function eventEntities(): EntityDef[] {
  return [
    binary("fault", "Fault", "problem"),
    text("faults", "Active faults", { icon: "mdi:alert-circle-outline" }),
    text("latest_fault", "Latest fault", { icon: "mdi:alert-circle-outline", entity_category: "diagnostic" }),
    timestamp("latest_fault_start", "Latest fault start", { entity_category: "diagnostic" }),
  ];
}

/** The active faults' names, oldest first, in one sensor state; cut with an ellipsis to fit. */
export function faultsText(active: readonly InverterFault[]): string {
  if (active.length === 0) return NO_FAULTS;
  const joined = [...new Set([...active].reverse().map((fault) => fault.name))].join(", ");
  return joined.length <= MAX_STATE_LENGTH ? joined : `${joined.slice(0, MAX_STATE_LENGTH - 1)}…`;
}

/** `active` holds the faults not yet cleared, newest first. */
export function eventPatch(active: readonly InverterFault[], latest: InverterFault | undefined): StateValues {
  return {
    fault: active.length > 0 ? "ON" : "OFF",
    faults: faultsText(active),
    latest_fault: latest?.name ?? null,
    latest_fault_start: latest?.startedAt ?? null,
  };
}
