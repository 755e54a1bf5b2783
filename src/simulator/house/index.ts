export type { ControlSettings, TimeSlot } from "./control.js";
export { readControl } from "./control.js";
export { daySimulations } from "./day-run.js";
export { CHARGE_EFFICIENCY, DISCHARGE_EFFICIENCY } from "./dispatch.js";
export type { EnergyFlowQuery } from "./flows.js";
export { type EventQuery, InverterModel, type InverterStatus } from "./model.js";
export type { SettingsView, SettingValue } from "./settings-view.js";
export type { BatterySpec, InverterSpec } from "./spec.js";
