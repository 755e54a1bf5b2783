import { isoSeconds } from "../../../time/index.js";
import { hash32 } from "../../random.js";
import { KIND_PROFILES, nominalWh } from "../../scenario/kinds.js";
import type { AccountRecord } from "../../world/accounts.js";
import type { EmsRecord, GatewayRecord, InverterRecord, PlantRecord, World } from "../../world/world.js";

/*
 * The device listing as the real service writes it (predbat_doc_communication_device_list.json):
 * the dongle's firmware an integer, `connections` always an object (`{batteries: [], meters: []}`
 * when a device has none), a gateway's `connections.datalog`. These are the simulator's own wire types, not the client's
 * schemas, which read more shapes than the service sends.
 */

export interface BatteryModuleBody {
  module_number: number;
  serial: string;
  firmware_version: number;
  capacity: { full: number; design: number };
  cell_count: number;
  has_usb: boolean;
  nominal_voltage: number;
  cycle_count?: number;
}

export interface MeterBody {
  address: number;
  serial_number: number;
  manufacturer_code: string;
  type_code: number;
  hardware_version: number;
  software_version: number;
  baud_rate: number;
}

interface DatalogBody {
  serial_number: string;
  firmware_version: number | string;
  type: string;
  commission_date: string;
  site_id?: number;
}

interface ConnectionsBody {
  datalog?: DatalogBody;
  batteries: BatteryModuleBody[];
  meters: MeterBody[];
}

interface InverterBody {
  serial: string;
  status: string;
  last_online: string;
  last_updated: string;
  commission_date: string;
  info: {
    battery_type: string;
    battery?: { nominal_capacity: number; nominal_voltage: number; depth_of_discharge: number };
    model: string;
    max_charge_rate: number;
    max_discharge_rate: number;
  };
  warranty: { type: string; expiry_date: string };
  firmware_version: { ARM: number; DSP: number };
  /** PHP sends an empty map as `[]`. */
  connections: ConnectionsBody;
  flags: string[];
}

export interface DeviceBody {
  serial_number: string;
  firmware_version: number | string;
  type: string;
  commission_date: string;
  inverter: InverterBody;
  site_id?: number;
}

const WARRANTY_MS = 12 * 365 * 86_400_000;
const round1 = (value: number): number => Math.round(value * 10) / 10;

const siteOf = (account: AccountRecord): { site_id?: number } =>
  account.entry.site ? { site_id: account.entry.site.id } : {};

export function batteryModules(record: InverterRecord): BatteryModuleBody[] {
  const { kind, battery_kwh: kwh } = record.entry;
  if (kwh <= 0) return [];
  const battery = KIND_PROFILES[kind].battery;
  const count = battery.moduleKwh > 0 ? Math.max(1, Math.round(kwh / battery.moduleKwh)) : 1;
  const designAh = round1(nominalWh(kind, kwh) / battery.nominalVoltage / count);
  return Array.from({ length: count }, (_, i) => ({
    module_number: i + 1,
    serial: `BM${record.serial.slice(2)}${i + 1}`,
    firmware_version: battery.firmware,
    capacity: { full: round1(designAh * 0.985), design: designAh },
    cell_count: battery.cellCount,
    has_usb: battery.hasUsb,
    nominal_voltage: battery.nominalVoltage,
    ...(battery.cycleCount ? { cycle_count: 180 + i * 7 } : {}),
  }));
}

function meters(count: number, serial: string): MeterBody[] {
  return Array.from({ length: count }, (_, i) => ({
    address: i + 1,
    serial_number: 2_000_000 + (hash32(0, serial, "meter", i) % 100_000),
    manufacturer_code: String(900_000_000 + (hash32(0, serial, "maker", i) % 100_000_000)),
    type_code: 33,
    hardware_version: 256,
    software_version: 517,
    baud_rate: 9600,
  }));
}

function batteryInfo(records: readonly InverterRecord[]) {
  const first = records.find((record) => record.entry.battery_kwh > 0)?.entry.kind ?? "hybrid";
  const battery = KIND_PROFILES[first].battery;
  const wh = records.reduce((sum, record) => sum + nominalWh(record.entry.kind, record.entry.battery_kwh), 0);
  return {
    nominal_capacity: Math.round(wh / battery.nominalVoltage),
    nominal_voltage: battery.nominalVoltage,
    depth_of_discharge: battery.depthOfDischarge,
  };
}

const maxRate = (record: InverterRecord): number =>
  Math.min(KIND_PROFILES[record.entry.kind].maxBatteryRateW, record.entry.max_power_w);

function timesOf(status: string, commissionMs: number, now: number) {
  return {
    status,
    last_online: isoSeconds(status === "LOST" ? now - 3_600_000 : now),
    last_updated: isoSeconds(now),
    commission_date: isoSeconds(commissionMs),
  };
}

export function inverterDevice(record: InverterRecord, now: number): DeviceBody {
  const profile = KIND_PROFILES[record.entry.kind];
  const child = record.emsSerial !== undefined || record.gatewaySerial !== undefined;
  return {
    serial_number: record.deviceSerial,
    firmware_version: record.deviceFirmware,
    type: record.deviceType,
    commission_date: isoSeconds(record.commissionMs),
    inverter: {
      serial: record.serial,
      ...timesOf(record.model.status(), record.commissionMs, now),
      info: {
        battery_type: "LITHIUM",
        battery: batteryInfo([record]),
        model: record.entry.model,
        max_charge_rate: maxRate(record),
        max_discharge_rate: maxRate(record),
      },
      warranty: { type: "Standard", expiry_date: isoSeconds(record.commissionMs + WARRANTY_MS) },
      firmware_version: { ...profile.firmware },
      connections: { batteries: batteryModules(record), meters: child ? [] : meters(profile.meters, record.serial) },
      flags: [...record.entry.flags],
    },
    ...siteOf(record.account),
  };
}

/** The plant's own entry: battery figures and rates are its children's, added up. */
function plantInverter(plant: PlantRecord, now: number, connections: InverterBody["connections"], battery: string) {
  return {
    serial: plant.serial,
    ...timesOf(plant.model.status(), plant.commissionMs, now),
    info: {
      battery_type: battery,
      battery: batteryInfo(plant.inverters),
      model: plant.modelName,
      max_charge_rate: plant.inverters.reduce((sum, record) => sum + maxRate(record), 0),
      max_discharge_rate: plant.inverters.reduce((sum, record) => sum + maxRate(record), 0),
    },
    warranty: { type: "Standard", expiry_date: isoSeconds(plant.commissionMs + WARRANTY_MS) },
    firmware_version: plant.kind === "ems" ? { ARM: 312, DSP: 0 } : { ARM: 13, DSP: 0 },
    connections,
    flags: [...plant.flags],
  };
}

/**
 * An EMS is listed as an inverter whose model is "Plant EMS", with no batteries or meters of its
 * own: `{"batteries": [], "meters": []}`, as the public client most Plant EMS owners run reads it
 * (it models a Plant EMS that way and would fail on a list). The documentation's `[]` stays a
 * tolerance case for the client, not what the simulator sends.
 */
export function emsDevice(ems: EmsRecord, now: number): DeviceBody {
  return {
    serial_number: ems.serial,
    firmware_version: 1203,
    type: "WIFI",
    commission_date: isoSeconds(ems.commissionMs),
    inverter: plantInverter(ems, now, { batteries: [], meters: [] }, "LITHIUM"),
    ...siteOf(ems.account),
  };
}

/**
 * A gateway as the real listing shows one: its dongle again as `connections.datalog`, the
 * batteries of its All-In-Ones, its meters, and battery_type LEAD_ACID (sic, as the evidence has it).
 */
export function gatewayDevice(gateway: GatewayRecord, now: number): DeviceBody {
  const dongle = {
    serial_number: gateway.dongle.serial,
    firmware_version: gateway.dongle.firmware_version,
    type: gateway.dongle.type,
    commission_date: isoSeconds(gateway.commissionMs),
    ...siteOf(gateway.account),
  };
  const connections = {
    datalog: dongle,
    batteries: gateway.inverters.flatMap(batteryModules),
    meters: meters(gateway.meterCount, gateway.serial),
  };
  return { ...dongle, inverter: plantInverter(gateway, now, connections, "LEAD_ACID") };
}

/** Communication devices of the given accounts: each inverter's dongle, each EMS, each gateway. */
export function devicesOf(world: World, usernames: Iterable<string>, now: number): DeviceBody[] {
  const names = new Set(usernames);
  const devices: DeviceBody[] = [];
  for (const record of world.inverters.values()) {
    if (!names.has(record.account.username) || record.emsSerial || record.gatewaySerial) continue;
    record.model.advanceTo(now);
    devices.push(inverterDevice(record, now));
  }
  for (const ems of world.ems.values()) {
    if (!names.has(ems.account.username)) continue;
    ems.model.advanceTo(now);
    devices.push(emsDevice(ems, now));
    for (const child of ems.inverters) {
      devices.push({ ...inverterDevice(child, now), serial_number: `${ems.serial}-${child.serial.slice(-3)}` });
    }
  }
  // The real listing shows a gateway's All-In-Ones first, then the gateway.
  for (const gateway of world.gateways.values()) {
    if (!names.has(gateway.account.username)) continue;
    gateway.model.advanceTo(now);
    for (const child of gateway.inverters) devices.push(inverterDevice(child, now));
    devices.push(gatewayDevice(gateway, now));
  }
  return devices;
}
