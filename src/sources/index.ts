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
export {
  CHARGER_MESSAGES,
  type ChargerCommand,
  type ChargerControl,
  type ChargerMessage,
  type ChargerReads,
} from "./charger-ports.js";
export { cloudControl, cloudInverters } from "./cloud/control.js";
export { discoverInventory } from "./cloud/discover.js";
export { isEms } from "./cloud/discover-inverters.js";
export { firstPage } from "./cloud/first-page.js";
export { cloudHistory } from "./cloud/history.js";
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
export { LocalControlError, localControl, settingsReads } from "./local/control.js";
export { type Identified, LocalDongle, type WrongDevice, WrongDeviceError } from "./local/dongle.js";
export { NoWritePathError, noWritePath } from "./local/no-write-path.js";
export { DETECTION_BANKS, IDENTITY } from "./local/reads.js";
export { type LocalDongleConfig, type LocalSource, localSource, type WrongDeviceEvent } from "./local/source.js";
export { ocppChargerControl } from "./ocpp/control.js";
export { type OcppCharger, OcppChargers, OcppNotConnectedError } from "./ocpp/resources.js";
export type { PollConfig } from "./poll-config.js";
export {
  type AccountReads,
  type CloudOnlyControl,
  type CloudOnlyKind,
  type ControlReads,
  type DeviceControl,
  type DevicePath,
  type DeviceSource,
  type DiscoverOptions,
  type HistorySource,
  type PollBudget,
  withoutCloud,
} from "./ports.js";
export type { PollResult, Resource } from "./resource.js";
