export type { ChangeOutcome, ChangeRequest, Requester, SettingValue } from "./change.js";
export { type ChangeApplied, changedDevice } from "./change-applied.js";
export type { ControlReading, ControlValues, EvCommandDataMap } from "./control-state.js";
export type { DeviceAction, DeviceActionOutcome } from "./device-action.js";
export type { ControlDevices, ControlledCharger, ControlledInverter } from "./devices.js";
export { type ApplyOptions, ControlGate, type ControlGateDeps, type Refusal } from "./gate.js";
export { type RestoreGate, type RestoreReport, restorePlan } from "./restore/plan.js";
export { prepareRestore } from "./restore/prepare.js";
export { sameValue } from "./same-value.js";
