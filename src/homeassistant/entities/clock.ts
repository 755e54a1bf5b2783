import type { EntityDef } from "./types.js";

/**
 * The device's own clock (docs/clock.md): how far it is from the daemon's, in seconds (ahead
 * positive). Announced once the device reports it: over the LAN, whose registers hold the clock.
 */
export const CLOCK_DRIFT_ENTITY: EntityDef = {
  key: "clock_drift",
  component: "sensor",
  name: "Clock drift",
  device_class: "duration",
  unit: "s",
  state_class: "measurement",
  icon: "mdi:clock-alert-outline",
  entity_category: "diagnostic",
  requiresData: true,
};

/** On while the device's clock is off and left so (docs/clock.md), announced once the daemon says it. */
export const CLOCK_PROBLEM_ENTITY: EntityDef = {
  key: "clock_problem",
  component: "binary_sensor",
  name: "Clock problem",
  device_class: "problem",
  entity_category: "diagnostic",
  requiresData: true,
};

/**
 * Sets the device's clock to the house's time now, as `bridge/request/clock/sync` does. Only the
 * LAN can write a clock: the button comes with the drift the LAN reads, so a device reached only
 * through the cloud has neither.
 */
export const SYNC_CLOCK_ENTITY: EntityDef = {
  key: "sync_clock",
  component: "button",
  name: "Sync clock",
  icon: "mdi:clock-check-outline",
  entity_category: "config",
  requiresDataOf: CLOCK_DRIFT_ENTITY.key,
  command: { target: { kind: "clock-sync" }, rules: [] },
};

/** The state the Clock problem entity reads. */
export function clockProblemState(problem: boolean): { readonly clock_problem: "ON" | "OFF" } {
  return { clock_problem: problem ? "ON" : "OFF" };
}
