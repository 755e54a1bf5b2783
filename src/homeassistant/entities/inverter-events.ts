import type { InverterFaultEvent } from "../../cloud/index.js";
import { binary, text, timestamp } from "./sensors.js";
import type { EntityDef, StateValues } from "./types.js";
import { zonedTimestamp } from "./values.js";

export function eventEntities(): EntityDef[] {
  return [
    binary("fault", "Fault", "problem"),
    text("latest_fault", "Latest fault", { icon: "mdi:alert-circle-outline", entity_category: "diagnostic" }),
    timestamp("latest_fault_start", "Latest fault start", { entity_category: "diagnostic" }),
  ];
}

/** `active` holds the faults not yet cleared. */
export function eventPatch(active: readonly InverterFaultEvent[], latest: InverterFaultEvent | undefined): StateValues {
  return {
    fault: active.length > 0 ? "ON" : "OFF",
    latest_fault: latest?.event ?? null,
    latest_fault_start: zonedTimestamp(latest?.start_time),
  };
}
