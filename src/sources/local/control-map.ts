import {
  batteryCapacityKwh,
  type ControlMap,
  controlMapOf,
  type DecodedDevice,
  type Detected,
} from "../../local/index.js";

/** The battery's nominal kWh the controller's HR 55 gives, where the model's voltage is known. */
export function capacityOf(detected: Pick<Detected, "model">, devices: readonly DecodedDevice[]): number | undefined {
  const ah = devices.find((device) => typeof device.state.battery_capacity_ah === "number")?.state.battery_capacity_ah;
  return batteryCapacityKwh(detected.model, typeof ah === "number" ? ah : undefined);
}

/** The control map of a dongle's controller over the LAN, with its battery's power limits where its capacity is known. */
export const lanControlMap = (
  detected: Pick<Detected, "model" | "armFirmware">,
  devices: readonly DecodedDevice[],
): ControlMap => controlMapOf(detected, capacityOf(detected, devices));
