import { binary } from "./sensors.js";
import type { EntityDef } from "./types.js";

/**
 * Every device's "Stale values": on once its values are older than twice its poll interval
 * (health/ says when, on the bus). Past `homeassistant.stale_after` the whole device shows
 * unavailable instead.
 */
export function freshnessEntities(): EntityDef[] {
  return [binary("stale", "Stale values", "problem", { entity_category: "diagnostic" })];
}

/** The state the entity reads. */
export function freshnessState(stale: boolean): { readonly stale: "ON" | "OFF" } {
  return { stale: stale ? "ON" : "OFF" };
}
