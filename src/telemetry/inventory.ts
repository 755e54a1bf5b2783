// The device list is the sources' word (they discover it); telemetry's face has always offered it.
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
