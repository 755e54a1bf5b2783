import { CLOUD_SETTINGS, type ControlMap, type DecodedDevice } from "../../local/index.js";
import type { BatteryModule, PresetDescriptor, SettingDescriptor } from "../../vocabulary/index.js";
import type { EmsDevice, Inventory, InverterDevice } from "../inventory.js";
import { capacityOf, lanControlMap } from "./control-map.js";
import type { Identified } from "./dongle.js";
import { LAN_PRESETS } from "./lan-presets.js";

/** Why a device found over the LAN refuses changes: no dongle may write to it and no cloud is configured. */
export const NO_LAN_WRITES =
  "no path can change this device: configure cloud, or its dongle under local: (not passive)";

/** What the LAN knows of the account: nothing but that it is this house. */
const LOCAL_ACCOUNT = { id: 0, name: "local", flags: [] };

/** One dongle's findings with the dongle it came from. */
export interface Found {
  readonly index: number;
  readonly identified: Identified;
  /** Whether the daemon may write through this dongle (configured active, and local writes on). */
  readonly writable?: boolean;
  /** Why its devices refuse changes when not writable, if not the inventory's reason. */
  readonly reason?: string;
}

/**
 * The settings (the cloud's descriptors: same ids and names; the rules the model's map gives, a
 * number's range its register's) and presets a model offers over the LAN.
 */
export function lanControls(map: ControlMap): {
  settings: SettingDescriptor[];
  presets: PresetDescriptor[];
} {
  return {
    settings: CLOUD_SETTINGS.flatMap((setting) => {
      const mapped = map.settings.get(setting.id);
      if (!mapped) return [];
      const range = mapped.range;
      return [
        {
          ...setting,
          ...(range ? { validation: `Value must be between ${range.min} and ${range.max}` } : {}),
          validation_rules: [...mapped.rules],
        },
      ];
    }),
    presets: LAN_PRESETS.flatMap((preset) => {
      const descriptor = preset.descriptor(map);
      return descriptor ? [descriptor] : [];
    }),
  };
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
 * (the listing's All-in-One: one module of 96 cells at 307.2 V, where its chain holds four BMUs of
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

/** The battery modules of one dongle's chain as the listing numbers them: its LV packs, then its HV stacks. */
function modulesOf(devices: readonly DecodedDevice[]): BatteryModule[] {
  const packs = batteriesOf(devices);
  return [...packs, ...hvStacksOf(devices, packs.length + 1)];
}

/** Whether a controller found over the LAN takes changes, with what, or why not. */
function controlsOf(
  identified: Identified,
  reason: string,
  writable: boolean,
): Pick<InverterDevice, "controllable" | "noControlReason" | "settings" | "presets"> {
  const controls = lanControls(lanControlMap(identified.detected, identified.devices));
  if (writable && controls.settings.length > 0) return { controllable: true, ...controls };
  return {
    controllable: false,
    noControlReason: !writable
      ? reason
      : `the ${identified.detected.model} has no settings this daemon knows the registers of: control it over the cloud`,
    settings: [],
    presets: [],
  };
}

/** Why an EMS's inverter takes no changes of its own. */
export const runByEms = (serial: string, ems: string): string =>
  `inverter ${serial} is run by its EMS ${ems}: change the EMS's slots, never the inverter's own`;

function inverterOf(
  identified: Identified,
  controller: DecodedDevice,
  reason: string,
  writable: boolean,
): InverterDevice {
  const arm = controller.state.arm_firmware;
  const capacityKwh = capacityOf(identified.detected, identified.devices);
  return {
    kind: "inverter",
    serial: controller.serial,
    model: identified.detected.model,
    dongleSerial: identified.dongleSerial,
    firmware: { arm: typeof arm === "number" ? arm : null },
    ...(capacityKwh === undefined ? {} : { batteryCapacityKwh: capacityKwh }),
    batteries: modulesOf(identified.devices),
    meters: [],
    flags: [],
    ...controlsOf(identified, reason, writable),
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
  for (const { identified, writable = false, reason: own } of found) {
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
        ...controlsOf(identified, own ?? reason, writable),
      });
      for (const child of children) parents.set(child, controller.serial);
    } else {
      inverters.set(controller.serial, inverterOf(identified, controller, own ?? reason, writable));
    }
  }
  for (const [child, parent] of parents) {
    const own = inverters.get(child);
    // Control goes to the EMS's own registers, never to a child's slots.
    inverters.set(
      child,
      own
        ? {
            ...own,
            emsSerial: parent,
            controllable: false,
            noControlReason: runByEms(child, parent),
            settings: [],
            presets: [],
          }
        : emsChild(child, parent),
    );
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
