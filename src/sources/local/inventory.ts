import type { BatteryModule } from "../../cloud/index.js";
import type { DecodedDevice } from "../../local/index.js";
import type { EmsDevice, Inventory, InverterDevice } from "../inventory.js";
import type { Identified } from "./dongle.js";

/** Why a device found over the LAN refuses changes until the next issue brings local writes. */
export const NO_LAN_WRITES = "no path can write yet over the LAN: configure cloud for control";

/** The same with a cloud configured: its control needs the cloud's listings, which `source: local` does not read yet. */
export const CLOUD_CONTROL_NEEDS_CLOUD_SOURCE =
  "with source: local the device's settings and presets are not read from the cloud yet (source: auto, next release): set source: cloud to change them";

/** What the LAN knows of the account: nothing but that it is this house. */
const LOCAL_ACCOUNT = { id: 0, name: "local", flags: [] };

/** One dongle's findings with the dongle it came from. */
export interface Found {
  readonly index: number;
  readonly identified: Identified;
}

const num = (device: DecodedDevice, key: string): number | undefined => {
  const value = device.state[key];
  return typeof value === "number" ? value : undefined;
};

/** LV packs as the cloud's device listing shows them: numbered from 1, capacities in Ah, cycles. */
function batteriesOf(devices: readonly DecodedDevice[]): BatteryModule[] {
  return devices
    .filter((device) => device.model === "LV battery")
    .map((pack, index) => ({
      module_number: index + 1,
      serial: pack.serial,
      capacity: { full: num(pack, "capacity") ?? null, design: num(pack, "design_capacity") ?? null },
      ...(num(pack, "cycle_count") === undefined ? {} : { cycle_count: num(pack, "cycle_count") }),
    }));
}

function inverterOf(identified: Identified, controller: DecodedDevice, reason: string): InverterDevice {
  const arm = controller.state.arm_firmware;
  return {
    kind: "inverter",
    serial: controller.serial,
    model: identified.detected.model,
    dongleSerial: identified.dongleSerial,
    firmware: { arm: typeof arm === "number" ? arm : null },
    batteries: batteriesOf(identified.devices),
    meters: [],
    flags: [],
    // Writes over the LAN come with the next issue; until then nothing local is controllable.
    controllable: false,
    noControlReason: reason,
    settings: [],
    presets: [],
  };
}

/** An inverter an EMS lists that has no dongle of its own configured: known by serial only. */
function emsChild(serial: string, emsSerial: string): InverterDevice {
  return {
    kind: "inverter",
    serial,
    model: "EMS-managed inverter",
    dongleSerial: "",
    firmware: {},
    emsSerial,
    batteries: [],
    meters: [],
    flags: [],
    controllable: false,
    settings: [],
    presets: [],
  };
}

/**
 * The inventory the LAN can know, in the cloud's shape: an inverter (or gateway) per dongle with
 * its model, firmware and LV packs as the cloud lists battery modules; an EMS per EMS dongle with
 * the inverters its rollup names, which are its children whether or not their own dongles are
 * configured. No EV chargers, smart devices or sites: only the cloud has them.
 */
export function localInventory(found: readonly Found[], timezone: string, reason = NO_LAN_WRITES): Inventory {
  const inverters = new Map<string, InverterDevice>();
  const ems: EmsDevice[] = [];
  const parents = new Map<string, string>();
  for (const { identified } of found) {
    const controller = identified.devices[0];
    if (!controller) continue;
    if (controller.kind === "ems") {
      const children = identified.devices.filter((device) => device.kind === "inverter").map((device) => device.serial);
      ems.push({
        kind: "ems",
        serial: controller.serial,
        model: identified.detected.model,
        inverterSerials: children,
        flags: [],
        controllable: false,
        noControlReason: reason,
        settings: [],
        presets: [],
      });
      for (const child of children) parents.set(child, controller.serial);
    } else {
      inverters.set(controller.serial, inverterOf(identified, controller, reason));
    }
  }
  for (const [child, parent] of parents) {
    const own = inverters.get(child);
    inverters.set(child, own ? { ...own, emsSerial: parent } : emsChild(child, parent));
  }
  return {
    account: LOCAL_ACCOUNT,
    timezone,
    inverters: [...inverters.values()],
    ems,
    evChargers: [],
    smartDevices: [],
    sites: [],
  };
}
