import { createRequire } from "node:module";
import type ModbusSerial from "modbus-serial";

const require = createRequire(import.meta.url);

/**
 * modbus-serial, loaded the first time a charger is reached over Modbus or the simulator serves
 * one: with its serial-port bindings it takes a twentieth of a second or more to load, which a
 * daemon without a Modbus charger (and every test that only imports the daemon) would pay for
 * nothing. It is CommonJS whose module.exports is the client class, with ServerTCP and the ports
 * on it, while its types declare that class as an ES default export: this says what it is.
 */
export function modbusSerial(): (typeof ModbusSerial)["default"] & typeof import("modbus-serial") {
  return require("modbus-serial") as (typeof ModbusSerial)["default"] & typeof import("modbus-serial");
}
