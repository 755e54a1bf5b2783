import type { SmartDeviceDataPoint } from "../../cloud/index.js";
import { power } from "./sensors.js";
import type { EntityDef, StateValues } from "./types.js";
import { num } from "./values.js";

export function smartDeviceEntities(): EntityDef[] {
  return [power("power", "Power")];
}

export function smartDevicePatch(point: SmartDeviceDataPoint): StateValues {
  return { power: num(point.power) };
}
