import {
  batteryCapacityKwh,
  type ControlMap,
  controlMapOf,
  type DecodedDevice,
  type Detected,
  gatewayCapacityKwh,
} from "../../local/index.js";

/** A gateway's count of All-in-Ones (IR 1700), from its decoded state. */
function aioCountOf(devices: readonly DecodedDevice[]): number | undefined {
  const count = devices.find((device) => device.kind === "gateway")?.state.aio_count;
  return typeof count === "number" ? count : undefined;
}

/**
 * The battery's nominal kWh: the controller's HR 55, where the model's voltage is known; on a
 * gateway its All-in-Ones' packs together (battery-capacity.ts).
 */
export function capacityOf(detected: Pick<Detected, "model">, devices: readonly DecodedDevice[]): number | undefined {
  if (detected.model === "Gateway") return gatewayCapacityKwh(aioCountOf(devices));
  const ah = devices.find((device) => typeof device.state.battery_capacity_ah === "number")?.state.battery_capacity_ah;
  return batteryCapacityKwh(detected.model, typeof ah === "number" ? ah : undefined);
}

/**
 * The control map of a dongle's controller over the LAN, with its battery's power limits where its
 * capacity is known (a gateway's where it counts its All-in-Ones).
 */
export const lanControlMap = (
  detected: Pick<Detected, "model" | "armFirmware">,
  devices: readonly DecodedDevice[],
): ControlMap => controlMapOf(detected, capacityOf(detected, devices), aioCountOf(devices));
