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

/** LFP cells' nominal voltage: the listing's All-in-One pack is 96 cells at 307.2 V. */
const LFP_CELL_VOLTS = 3.2;

/**
 * HV stacks as the cloud's device listing shows them: not a module per BMU but one per stack
 * (the listing's All-in-One: one module of 96 cells at 307.2 V, where its bus holds four BMUs of
 * 24 cells), so the same battery_1 entities come whichever path fetched them. Its cells are its
 * BMUs' (none listed when none answered), its capacity the BCU's nominal Ah (IR 98); the
 * full capacity the listing also gives has no register in the public maps (the BCU has nominal,
 * remaining and health, IR 98, 99, 81) nor the captures, and stays null (docs/entities.md).
 */
function hvStacksOf(devices: readonly DecodedDevice[], first: number): BatteryModule[] {
  const bmus = devices.filter((device) => device.model === "HV battery module (BMU)");
  const bmuCells = bmus.reduce((total, bmu) => total + (num(bmu, "cell_count") ?? 0), 0);
  return devices
    .filter((device) => device.model === "HV battery stack (BCU)")
    .map((bcu, index) => {
      return {
        module_number: first + index,
        serial: bcu.serial,
        capacity: { full: null, design: num(bcu, "design_capacity") ?? null },
        ...(bmuCells > 0
          ? { cell_count: bmuCells, nominal_voltage: Math.round(bmuCells * LFP_CELL_VOLTS * 10) / 10 }
          : {}),
      };
    });
}

/** The battery modules of one dongle's bus as the listing numbers them: its LV packs, then its HV stacks. */
function modulesOf(devices: readonly DecodedDevice[]): BatteryModule[] {
  const packs = batteriesOf(devices);
  return [...packs, ...hvStacksOf(devices, packs.length + 1)];
}

function inverterOf(identified: Identified, controller: DecodedDevice, reason: string): InverterDevice {
  const arm = controller.state.arm_firmware;
  return {
    kind: "inverter",
    serial: controller.serial,
    model: identified.detected.model,
    dongleSerial: identified.dongleSerial,
    firmware: { arm: typeof arm === "number" ? arm : null },
    batteries: modulesOf(identified.devices),
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
 * its model, firmware and LV packs and HV stacks as the cloud lists battery modules; an EMS per EMS dongle with
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
