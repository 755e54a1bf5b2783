import {
  type BatteryFacts,
  batteryCapacityKwh,
  type ControlMap,
  controlMapOf,
  type DecodedDevice,
  type Detected,
  gatewayCapacityKwh,
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

/** A gateway's count of All-in-Ones (IR 1700), from its decoded state. */
const aioCountOf = (devices: readonly DecodedDevice[]): number | undefined =>
  numberIn(
    devices.find((device) => device.kind === "gateway"),
    "aio_count",
  );

/**
 * The battery's nominal kWh: the controller's HR 55 where the model's voltage is known; on a
 * three-phase (whose HR 55 reads 0) its HV stack's, from the BCU's nominal Ah and modules; on a
 * gateway its All-in-Ones' packs together (battery-capacity.ts).
 */
export function capacityOf(detected: Pick<Detected, "model">, devices: readonly DecodedDevice[]): number | undefined {
  if (detected.model === "Gateway") return gatewayCapacityKwh(aioCountOf(devices));
  if (HV_STACK_CAPACITY.has(detected.model)) {
    const bcu = bcuOf(devices);
    return hvStackCapacityKwh(numberIn(bcu, "design_capacity"), numberIn(bcu, "modules"));
  }
  const ah = devices.find((device) => typeof device.state.battery_capacity_ah === "number")?.state.battery_capacity_ah;
  return batteryCapacityKwh(detected.model, typeof ah === "number" ? ah : undefined);
}

/** What the control map needs of the battery: its capacity, its HV modules where a BCU counts them, a gateway's All-in-Ones. */
export function batteryFactsOf(detected: Pick<Detected, "model">, devices: readonly DecodedDevice[]): BatteryFacts {
  const capacityKwh = capacityOf(detected, devices);
  const hvModules = numberIn(bcuOf(devices), "modules");
  const aioCount = aioCountOf(devices);
  return {
    ...(capacityKwh === undefined ? {} : { capacityKwh }),
    ...(hvModules === undefined ? {} : { hvModules }),
    ...(aioCount === undefined ? {} : { aioCount }),
  };
}

/** The control map of a dongle's controller over the LAN, with its battery's power limits where its battery is known. */
export const lanControlMap = (
  detected: Pick<Detected, "model" | "armFirmware">,
  devices: readonly DecodedDevice[],
): ControlMap => controlMapOf(detected, batteryFactsOf(detected, devices));
