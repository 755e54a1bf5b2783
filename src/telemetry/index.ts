export { type DiscoverOptions, discoverInventory } from "./discover.js";
export {
  type Device,
  deviceId,
  type EmsDevice,
  type EvChargerDevice,
  type Inventory,
  type InverterDevice,
  type SmartDeviceInfo,
} from "./inventory.js";
export type { Reading, ReadingKind } from "./readings.js";
export { type PollConfig, startTelemetry, type Telemetry, type TelemetryOptions } from "./telemetry.js";
