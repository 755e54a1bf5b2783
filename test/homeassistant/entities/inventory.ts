import { readFileSync } from "node:fs";
import { z } from "zod";
import { account } from "../../../src/cloud/schemas/account.js";
import { EV_COMMAND_IDS } from "../../../src/cloud/schemas/ev-commands.js";
import { presetDescriptor, settingDescriptor } from "../../../src/cloud/schemas/inverter-control.js";
import { InverterControl } from "../../../src/simulator/inverter-control/index.js";
import type {
  EmsDevice,
  EvChargerDevice,
  Inventory,
  InverterDevice,
  SmartDeviceInfo,
} from "../../../src/sources/index.js";

export const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), "utf8"));

/** The real Gen3 hybrid settings listing (test/fixtures, from abedegno/givlocal). */
export const SETTINGS = z
  .object({ data: z.array(settingDescriptor) })
  .parse(fixture("inverter-settings.gen3-hybrid.json")).data;

/** The presets listing the simulator answers for that inverter: realistic parameter shapes. */
export const control = new InverterControl({ serial: "SD2024G001", flags: [], random: () => 0 });
export const PRESET_LIST = z.array(presetDescriptor).parse(control.presetsList());

export const inverter: InverterDevice = {
  kind: "inverter",
  serial: "SD2024G001",
  model: "GIV-HY5.0",
  dongleSerial: "WF2024D001",
  firmware: { arm: 193, dsp: 190, dongle: 904 },
  batteryCapacityKwh: 9.5,
  batteries: [
    {
      module_number: 1,
      serial: "DF0000G000",
      firmware_version: 3017,
      capacity: { full: 184.82, design: 186 },
      cell_count: 16,
      has_usb: true,
      nominal_voltage: 51.2,
      cycle_count: 212,
    },
  ],
  meters: [],
  flags: [],
  controllable: true,
  settings: SETTINGS,
  presets: PRESET_LIST,
};

export const emsChild: InverterDevice = {
  ...inverter,
  serial: "SE2024G101",
  model: "GIV-AC3.0",
  dongleSerial: "WF2024D101",
  emsSerial: "EM2024E001",
  batteries: [],
  controllable: false,
};

export const ems: EmsDevice = {
  kind: "ems",
  serial: "EM2024E001",
  model: "EMS",
  inverterSerials: ["SE2024G101", "SE2024G102"],
  flags: [],
  controllable: false,
  settings: [],
  presets: [],
};

export const charger: EvChargerDevice = {
  kind: "ev_charger",
  uuid: "6B1F0C8E-2F51-4C1B-9D3A-5E7C2A9B0D11",
  serial: "EVC2024A001",
  alias: "Driveway",
  type: "GIV-EVC-7.4",
  commands: [...EV_COMMAND_IDS],
};

export const smart: SmartDeviceInfo = {
  kind: "smart_device",
  uuid: "9d7e4c2a-1b3f-4e5d-8a6c-0f1e2d3c4b5a",
  alias: "Dishwasher",
};

export const inventory: Inventory = {
  account: account.parse({ id: 1001, name: "demo-owner", standard_timezone: "Europe/London" }),
  timezone: "Europe/London",
  inverters: [inverter, emsChild],
  ems: [ems],
  evChargers: [charger],
  smartDevices: [smart],
  sites: [],
};
