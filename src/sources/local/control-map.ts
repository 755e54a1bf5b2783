import {
  type BatteryFacts,
  batteryCapacityKwh,
  type ControlMap,
  controlMapOf,
  type DecodedDevice,
  type Detected,
  HV_STACK_CAPACITY,
  hvStackCapacityKwh,
} from "../../local/index.js";

const numberIn = (device: DecodedDevice | undefined, key: string): number | undefined => {
  const value = device?.state[key];
  return typeof value === "number" ? value : undefined;
};

/** The chain's HV stack (its BCU), if it has one. */
const bcuOf = (devices: readonly DecodedDevice[]): DecodedDevice | undefined =>
  devices.find((device) => device.model === "HV battery stack (BCU)");

/**
 * The battery's nominal kWh: the controller's HR 55 where the model's voltage is known; on a
 * three-phase (whose HR 55 reads 0) its HV stack's, from the BCU's nominal Ah and modules.
 */
export function capacityOf(detected: Pick<Detected, "model">, devices: readonly DecodedDevice[]): number | undefined {
  if (HV_STACK_CAPACITY.has(detected.model)) {
    const bcu = bcuOf(devices);
    return hvStackCapacityKwh(numberIn(bcu, "design_capacity"), numberIn(bcu, "modules"));
  }
  const ah = devices.find((device) => typeof device.state.battery_capacity_ah === "number")?.state.battery_capacity_ah;
  return batteryCapacityKwh(detected.model, typeof ah === "number" ? ah : undefined);
}

/** What the control map needs of the battery: its capacity, and its HV modules where a BCU counts them. */
export function batteryFactsOf(detected: Pick<Detected, "model">, devices: readonly DecodedDevice[]): BatteryFacts {
  const capacityKwh = capacityOf(detected, devices);
  const hvModules = numberIn(bcuOf(devices), "modules");
  return {
    ...(capacityKwh === undefined ? {} : { capacityKwh }),
    ...(hvModules === undefined ? {} : { hvModules }),
  };
}

/** The control map of a dongle's controller over the LAN, with its battery's power limits where its battery is known. */
export const lanControlMap = (
  detected: Pick<Detected, "model" | "armFirmware">,
  devices: readonly DecodedDevice[],
): ControlMap => controlMapOf(detected, batteryFactsOf(detected, devices));
