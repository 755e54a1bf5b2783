export {
  type AutoSource,
  autoControl,
  autoSource,
  BothPathsFailedError,
  type InventoryFrom,
  PathChoice,
  type PathSetting,
  type PathState,
  type PathSwitch,
} from "./auto/index.js";
export { firstAnswering, firstCarrying, withChargers } from "./charger-paths.js";
export {
  CHARGER_MESSAGES,
  type ChargerAnswer,
  type ChargerCommand,
  type ChargerControl,
  type ChargerMessage,
  type ChargerReads,
  type CloudChargerCommands,
  type CloudChargerReads,
} from "./charger-ports.js";
export type { ClockControl } from "./clock-port.js";
export { cloudControl, cloudInverters } from "./cloud/control.js";
export { discoverInventory } from "./cloud/discover.js";
export { isEms } from "./cloud/discover-inverters.js";
export { firstPage } from "./cloud/first-page.js";
export { cloudHistory } from "./cloud/history.js";
export { type CloudPath, cloudPath } from "./cloud/path.js";
export type { AccountReads, HistorySource } from "./cloud/ports.js";
export { cloudSource } from "./cloud/source.js";
export type {
  ControlCall,
  HeldValue,
  InverterControl,
  InverterReads,
  PathOutcome,
  PresetFields,
  SettingValue,
} from "./control-ports.js";
export { modbusChargerControl } from "./evc-modbus/control.js";
export { type ModbusChargerLink, ModbusChargers, ModbusNotReadError } from "./evc-modbus/resources.js";
export type { Fetched, FetchedKind } from "./fetched.js";
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
} from "./inventory.js";
export { localClockControl } from "./local/clock-control.js";
export { LocalControlError, localControl, settingsReads } from "./local/control.js";
export { type Identified, LocalDongle, type WrongDevice, WrongDeviceError } from "./local/dongle.js";
export { NoWritePathError, noWritePath } from "./local/no-write-path.js";
export { DETECTION_BANKS, IDENTITY } from "./local/reads.js";
export { type LocalDongleConfig, type LocalSource, localSource, type WrongDeviceEvent } from "./local/source.js";
export { ocppChargerControl } from "./ocpp/control.js";
export { type OcppCharger, OcppChargers, OcppNotConnectedError } from "./ocpp/resources.js";
export type { PollConfig } from "./poll-config.js";
export {
  type CloudOnlyControl,
  type CloudOnlyKind,
  type ControlReads,
  type DeviceControl,
  type DevicePath,
  type DeviceSource,
  type DiscoverOptions,
  type PollBudget,
  withoutCloud,
} from "./ports.js";
export type { PollResult, Resource } from "./resource.js";
