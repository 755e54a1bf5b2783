export type { ChangeOutcome, ChangeRequest, Requester, SettingValue } from "./change.js";
export { type ChangeApplied, changedDevice } from "./change-applied.js";
export type { ChargerAction } from "./charger-actions.js";
export { CLOCK_SYNC_ACTION, type ClockSyncReason, type ClockSyncRequest } from "./clock-sync.js";
export {
  type ClockSyncMode,
  ClockWatch,
  type ClockWatchOptions,
  DRIFT_LIMIT_S,
  type OwnClockVerdict,
} from "./clock-watch.js";
export type { ControlReading, ControlValues, EvCommandDataMap } from "./control-state.js";
export type { DeviceAction, DeviceActionOutcome } from "./device-action.js";
export type { ControlDevices, ControlledCharger, ControlledInverter } from "./devices.js";
export { type ApplyOptions, ControlGate, type ControlGateDeps, type Refusal } from "./gate.js";
export { PauseSlots } from "./pause-slots.js";
export { findPreset, presetProblems } from "./preset-rules.js";
export { ControlReadBack, type ControlRecord, type ControlTarget } from "./read-back.js";
export { cloudDeviceReads, type DeviceReads } from "./restore/device-reads.js";
export { type RestoreGate, type RestoreReport, restorePlan } from "./restore/plan.js";
export { prepareRestore } from "./restore/prepare.js";
export { sameValue } from "./same-value.js";
export { checkSetting } from "./setting-rules.js";
export * from "./settings-backup/index.js";
export {
  deviceSideEffects,
  FULL_POWER_FLAG,
  type SideEffect,
  type SideEffectDevice,
  type SideEffects,
  sideEffectsOf,
} from "./side-effects.js";
export { WriteBudget, type WriteBudgetOptions } from "./write-budget.js";
