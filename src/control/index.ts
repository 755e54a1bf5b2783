export type { ChangeOutcome, ChangeRequest, Requester, SettingValue } from "./change.js";
export type { ControlDevices, ControlledCharger, ControlledInverter } from "./devices.js";
export { type ApplyOptions, ControlGate, type ControlGateDeps, type Refusal } from "./gate.js";
export { sameValue } from "./same-value.js";
