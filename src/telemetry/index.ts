export {
  type ControllableDevice,
  type Device,
  deviceId,
  deviceName,
  devicesOf,
  dongleOf,
  type EmsDevice,
  type EvChargerDevice,
  hasControls,
  type Inventory,
  type InverterDevice,
  type SmartDeviceInfo,
} from "../sources/index.js";
export { StateChanges } from "./changes.js";
export { faultAnnouncements } from "./fault-announcements.js";
export { type TelemetryFeature, type TelemetryFeatureOptions, telemetryFeature } from "./feature.js";
export { type InventoryFeature, inventoryFeature } from "./inventory-feature.js";
export {
  type Availability,
  type DeviceState,
  type DeviceStateKind,
  type PollSucceeded,
  stateOf,
} from "./states.js";
export {
  type PollConfig,
  startTelemetry,
  type Telemetry,
  type TelemetryEvent,
  type TelemetryOptions,
} from "./telemetry.js";
