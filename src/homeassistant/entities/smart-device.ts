import type { SmartDeviceReading } from "../../vocabulary/index.js";
import { power } from "./sensors.js";
import type { EntityDef, StateValues } from "./types.js";
import { num } from "./values.js";

export function smartDeviceEntities(): EntityDef[] {
  return [power("power", "Power")];
}

export function smartDevicePatch(reading: SmartDeviceReading): StateValues {
  return { power: num(reading.power) };
}
