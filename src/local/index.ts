export { type CountKind, readCapture } from "./capture.js";
export { ChainDecoder, type DecodedDevice, type SkipKind } from "./decode.js";
export {
  buildBroadcast,
  buildErrorResponse,
  buildHeartbeat,
  buildResponse,
  buildWriteRequest,
  buildWriteResponse,
  crcHolds,
  type Frame,
  FrameError,
  MAX_REGISTERS,
  ModbusFunction,
  parseFrame,
} from "./frame.js";
export { Framer } from "./framer.js";
export { DONGLE_GAP_MS } from "./pacing.js";
export { type State, type StateValue, statusName } from "./registers/bank.js";
export {
  BAMS_CLUSTER,
  BAMS_SUMMARY,
  BMU_CELLS,
  BMU_TEMPERATURE_SENSORS,
  FIRST_BMU,
  LV_BATTERY_ADDRESSES,
} from "./registers/battery.js";
export {
  AIO_NOMINAL_AH,
  BATTERY_CAPACITY_REGISTER,
  batteryCapacityKwh,
  gatewayCapacityKwh,
  HV_STACK_CAPACITY,
  hvStackCapacityKwh,
} from "./registers/battery-capacity.js";
export { CALIBRATION_REGISTER, calibrationOf, calibrationWord } from "./registers/calibration.js";
export {
  CLOCK_COUNT,
  CLOCK_FIRST,
  CLOCK_REGISTERS,
  clockWords,
  decodeClock,
  encodeClock,
  isClockRegister,
  wallOfText,
  wallOfWords,
  wallText,
} from "./registers/clock.js";
export { CLOUD_SETTINGS, type CloudSettingDescriptor } from "./registers/cloud-settings.js";
export {
  acChargeIds,
  type BatteryFacts,
  type Codec,
  type ControlMap,
  ControlMapError,
  type ControlRegister,
  checkWritable,
  clockWriteMap,
  controlMapOf,
  dcDischargeIds,
  decodeSetting,
  type ExportSlotKey,
  encodeSetting,
  exportSlotKeys,
  type MappedRegister,
  nameOf,
  type PresetFieldKey,
  type PresetFieldRegister,
} from "./registers/controls.js";
export {
  encodeBamsCluster,
  encodeBamsSummary,
  encodeBcu,
  encodeBmu,
  encodeEms,
  encodeGateway,
  encodeIdentity,
  encodeLvBattery,
  encodeMeter,
  encodeSinglePhase,
  encodeThreePhase,
} from "./registers/encode.js";
export { encodeFaults, FAULT_WORDS, faultsOfState } from "./registers/faults.js";
export { GATEWAY_AIO_SLOTS } from "./registers/gateway.js";
export { balancedLoadToday, LOAD_BALANCE_INPUTS } from "./registers/load-balance.js";
export type { Detected } from "./registers/model.js";
export { type Model, modelFromIdentity } from "./registers/model.js";
export { RegisterFile } from "./registers/register-file.js";
export { encodeThreePhaseFaults, THREE_PHASE_FAULT_WORDS } from "./registers/three-phase-faults.js";
export { DongleSession, type Read, SessionError, type SessionErrorKind, type Write } from "./session.js";
