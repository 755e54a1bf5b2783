import { enumSensor, reported } from "./sensors.js";
import type { EntityDef } from "./types.js";

/** The two paths, as the enum sensor's options: every state it is sent is one of them. */
const PATHS = ["local", "cloud"] as const;

/**
 * With `source: auto`, an inverter's, EMS's or EV charger's "Path": local (its dongle on the LAN;
 * for a charger, its charge point on the daemon's OCPP central system or its Modbus registers) or
 * cloud, whichever carries its live data now; with `source: local`, a charger on one of its own
 * paths says local. Announced only once the daemon says it (an inverter on one path has none).
 */
export function pathEntities(): EntityDef[] {
  return [reported(enumSensor("path", "Path", PATHS, { entity_category: "diagnostic", icon: "mdi:lan-connect" }))];
}

/** The state the entity reads. */
export function pathState(path: (typeof PATHS)[number]): { readonly path: string } {
  return { path };
}
