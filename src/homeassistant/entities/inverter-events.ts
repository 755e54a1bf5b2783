import type { InverterFault } from "../../vocabulary/index.js";
import { binary, text, timestamp } from "./sensors.js";
import type { EntityDef, StateValues } from "./types.js";

export function eventEntities(): EntityDef[] {
  return [
    binary("fault", "Fault", "problem"),
    text("latest_fault", "Latest fault", { icon: "mdi:alert-circle-outline", entity_category: "diagnostic" }),
    timestamp("latest_fault_start", "Latest fault start", { entity_category: "diagnostic" }),
  ];
}

/** `active` holds the faults not yet cleared. */
export function eventPatch(active: readonly InverterFault[], latest: InverterFault | undefined): StateValues {
  return {
    fault: active.length > 0 ? "ON" : "OFF",
    latest_fault: latest?.name ?? null,
    latest_fault_start: latest?.startedAt ?? null,
  };
}
