import { plain } from "./sensors.js";
import type { EntityDef } from "./types.js";

/**
 * A controllable device's "Writes today": the values the gate wrote to it since local midnight,
 * which `control.write_budget` caps. A plain number with state class measurement and no device
 * class, so Home Assistant keeps its statistics and has no unit to check it against.
 */
export function writeCountEntities(): EntityDef[] {
  return [
    plain("writes_today", "Writes today", {
      state_class: "measurement",
      icon: "mdi:counter",
      entity_category: "diagnostic",
    }),
  ];
}

/** The state the entity reads. */
export function writeCountState(writes: number): { readonly writes_today: number } {
  return { writes_today: writes };
}
