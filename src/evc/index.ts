/**
 * The EV charger's local paths: its Modbus TCP map (shared with the simulator, which serves it)
 * and the daemon's Modbus client. The OCPP central system lives in ocpp/.
 */
export {
  type ChargerReading,
  type ChargerWriteOutcome,
  chargerReading,
  type ModbusCharger,
  type ModbusChargerOptions,
  modbusCharger,
} from "./modbus-charger.js";
export {
  EVC_CHARGE_CONTROL,
  EVC_MIN_LIMIT_A,
  EVC_READ_BLOCKS,
  EVC_REGISTER_COUNT,
  EVC_REGISTERS,
  EVC_SERIAL_END,
  EVC_STATES,
  EVC_WRITABLE,
  type EvcChargeControl,
  type EvcRegister,
  type EvcState,
} from "./modbus-map.js";
export { modbusSerial } from "./modbus-serial.js";
