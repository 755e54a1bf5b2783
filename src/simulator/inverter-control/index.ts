export type { ControlAnswer } from "./answers.js";
export { listingOf } from "./descriptors.js";
export {
  type DeviceConditions,
  InverterControl,
  type InverterControlOptions,
  type PresetResult,
} from "./inverter-control.js";
export { GEN3_HYBRID_SETTINGS, type SettingDefinition } from "./listing.js";
export { AC_CHARGE_SLOTS, DC_DISCHARGE_SLOTS, SETTING, type SlotIds } from "./setting-ids.js";
export type { SettingValue } from "./stored-value.js";
