export {
  booleanValue,
  checkFields,
  checkValue,
  describeRules,
  numericValue,
  type ParsedRule,
  parseRules,
} from "../validation/index.js";
export { ENDPOINTS, findEndpoint } from "./catalogue.js";
export { CloudClient } from "./client.js";
export type { QueryInput } from "./endpoint.js";
export { defineEndpoint, type EndpointInfo, encodeQuery, fillPath, type HttpMethod } from "./endpoint.js";
export * from "./errors.js";
export {
  type CallOptions,
  type CloudClientOptions,
  CloudHttp,
  DEFAULT_CONTEXT,
  type RawResponse,
  statusError,
} from "./http.js";
export { normalised, toKwh, toW } from "./meter-units.js";
export { PageIterator } from "./pagination.js";
export type { RateBudgetState } from "./rate-budget.js";
export { type Priority, RateBudget, type RateBudgetOptions, RateBudgetRegistry, sharedBudgets } from "./rate-budget.js";
export { type Refusal, type RefusalCause, RefusalWatch, refusalText } from "./refusal.js";
export * from "./results.js";
export type { Account, account } from "./schemas/account.js";
export type { Page } from "./schemas/common.js";
export type { BatteryModule, CommunicationDevice, Inverter, Meter } from "./schemas/communication-device.js";
export type { EmsSystemData, emsSystemData } from "./schemas/ems.js";
export {
  type ChargerMeterRecord,
  type ChargingSession,
  type chargerMeterRecord,
  type chargingSession,
  EV_CHARGER_STATUSES,
  EV_OPERATING_MODES,
  EV_STOP_REASONS,
  type EvCharger,
  type evCharger,
  isSessionOpen,
  MEASURANDS,
  type Measurand,
  measurandName,
  type measurement,
  meterUnitName,
  STARTED_BY_INVERTER_CONTROL,
  STARTED_BY_PLUG_AND_GO,
} from "./schemas/ev-charger.js";
export {
  CONFIGURATION_MODE_INFO,
  type ConfigurationMode,
  EV_COMMAND_IDS,
  EV_COMMANDS,
  type EvCommandData,
  type EvCommandId,
  type INVERTER_CONTROL_MODES,
  isEvCommandId,
} from "./schemas/ev-commands.js";
export {
  PAUSE_BATTERY_MODES,
  PRESETS,
  PROFILE_PRESETS,
  type PresetDescriptor,
  type PresetIdentifier,
  type PresetParameter,
  type PresetValues,
  presetDescriptor,
  type SettingDescriptor,
  type SettingValue,
  settingDescriptor,
  slots,
} from "./schemas/inverter-control.js";
export type {
  EnergyFlowRecord,
  EnergyTotals,
  InverterDataPoint,
  InverterFaultEvent,
  MeterData,
  SystemData,
} from "./schemas/inverter-data.js";
export { type NotificationRequest, notificationRequest } from "./schemas/notification.js";
export type { Site, site } from "./schemas/site.js";
export type { SmartDeviceDataPoint } from "./schemas/smart-device.js";
export { evChargerEndpoints } from "./sections/ev-chargers.js";
export { inverterControlEndpoints, type PresetChange } from "./sections/inverter-control.js";
export { notificationEndpoints } from "./sections/notifications.js";
export type { ApplyProfileRequest, ProfileRef } from "./sections/preset-profiles.js";
export { snapshotEndpoints } from "./sections/snapshots.js";
