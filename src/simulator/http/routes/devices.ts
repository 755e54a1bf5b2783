import type { z } from "zod";
import type { communicationDevice } from "../../../cloud/schemas/communication-device.js";
import type { emsSystemData } from "../../../cloud/schemas/ems.js";
import { isoUtc } from "../../time.js";
import type { EmsRecord, InverterRecord, World } from "../../world/world.js";
import { notFound, ok, paginate } from "../envelope.js";
import type { Route } from "../route.js";
import { pageQuery } from "./account.js";

type DeviceBody = z.input<typeof communicationDevice>;

const MODULE_KWH = 9.5;

function batteryModules(record: InverterRecord) {
  const kwh = record.source.battery_kwh;
  if (kwh <= 0) return [];
  const count = Math.max(1, Math.round(kwh / MODULE_KWH));
  const designAh = Math.round(((kwh * 1000) / 51.2 / count) * 100) / 100;
  return Array.from({ length: count }, (_, i) => ({
    module_number: i + 1,
    serial: `BM${record.serial.slice(2)}${i + 1}`,
    firmware_version: 3017,
    capacity: { full: Math.round(designAh * 0.985 * 100) / 100, design: designAh },
    cell_count: 16,
    has_usb: true,
    nominal_voltage: 51.2,
    cycle_count: 180 + i * 7,
  }));
}

export function inverterDevice(record: InverterRecord, now: number): DeviceBody {
  const status = record.model.status();
  return {
    serial_number: record.deviceSerial,
    type: record.deviceType,
    firmware_version: "904",
    commission_date: isoUtc(record.commissionMs),
    inverter: {
      serial: record.serial,
      status,
      last_online: isoUtc(status === "LOST" ? now - 3_600_000 : now),
      last_updated: isoUtc(now),
      commission_date: isoUtc(record.commissionMs),
      info: {
        battery_type: "LITHIUM",
        battery: {
          nominal_capacity: Math.round((record.source.battery_kwh * 1000) / 51.2),
          nominal_voltage: 51.2,
          depth_of_discharge: 1,
        },
        model: record.source.model,
        max_charge_rate: Math.min(3600, record.source.max_power_w),
        max_discharge_rate: Math.min(3600, record.source.max_power_w),
      },
      warranty: { type: "Standard", expiry_date: isoUtc(record.commissionMs + 10 * 365 * 86_400_000) },
      firmware_version: { ARM: 193, DSP: 190 },
      connections: {
        batteries: batteryModules(record),
        meters: record.emsSerial
          ? []
          : [
              {
                address: 1,
                serial_number: 20_240_000 + (record.serial.charCodeAt(record.serial.length - 1) % 100),
                manufacturer_code: "EASTRON",
                type_code: 1,
                hardware_version: 1,
                software_version: 102,
                baud_rate: 9600,
              },
            ],
      },
      flags: record.source.flags,
    },
    site_id: record.account.source.site?.id,
  };
}

function emsDevice(ems: EmsRecord, now: number): DeviceBody {
  return {
    serial_number: ems.serial,
    type: "WIFI",
    firmware_version: "1203",
    commission_date: isoUtc(ems.commissionMs),
    inverter: {
      serial: ems.serial,
      status: "NORMAL",
      last_online: isoUtc(now),
      last_updated: isoUtc(now),
      commission_date: isoUtc(ems.commissionMs),
      info: { battery_type: "LITHIUM", model: "GIV-EMS", max_charge_rate: 0 },
      firmware_version: { ARM: 312, DSP: null },
      connections: { batteries: [], meters: [] },
      flags: ["is-controllable"],
    },
    site_id: ems.account.source.site?.id,
  };
}

/** Communication devices of the given accounts: each inverter's dongle, and each EMS. */
export function devicesOf(world: World, usernames: Iterable<string>, now: number): DeviceBody[] {
  const names = new Set(usernames);
  const devices: DeviceBody[] = [];
  for (const record of world.inverters.values()) {
    if (!names.has(record.account.username) || record.emsSerial) continue;
    record.model.advanceTo(now);
    devices.push(inverterDevice(record, now));
  }
  for (const ems of world.ems.values()) {
    if (!names.has(ems.account.username)) continue;
    devices.push(emsDevice(ems, now));
    for (const child of ems.inverters) {
      child.model.advanceTo(now);
      devices.push({ ...inverterDevice(child, now), serial_number: `${ems.serial}-${child.serial.slice(-3)}` });
    }
  }
  return devices;
}

const EMS_INVERTER_STATUS = { NORMAL: 2, WAITING: 1, ERROR: 4, LOST: 7, UNKNOWN: 0 } as const;

export function emsSystemDataBody(ems: EmsRecord, now: number): z.input<typeof emsSystemData> {
  let battery = 0;
  let whRemaining = 0;
  let generation = 0;
  let grid = 0;
  let load = 0;
  const inverters = ems.inverters.map((record, index) => {
    record.model.advanceTo(now);
    const model = record.model;
    battery += model.batteryPowerW();
    whRemaining += (model.socPercent() / 100) * record.source.battery_kwh * 1000;
    generation += model.pvPowerW();
    grid += model.gridPowerW();
    load += model.loadPowerW();
    const status = model.status();
    return {
      active_power: status === "LOST" ? null : Math.round(model.pvPowerW() + model.batteryPowerW()),
      number: index + 1,
      serial_number: record.serial,
      soc: status === "LOST" ? null : Math.round(model.socPercent()),
      status: EMS_INVERTER_STATUS[status],
      temperature: status === "LOST" ? null : Math.round(model.temperatureC() * 10) / 10,
    };
  });
  const meters = Array.from({ length: ems.meterCount }, (_, i) => ({
    active_power: i === 0 ? Math.round(grid) : Math.round(generation),
    number: i + 1,
    status: 1,
    type: i === 0 ? 0 : 1,
  }));
  const anyError = inverters.some(
    (i) => i.status === EMS_INVERTER_STATUS.ERROR || i.status === EMS_INVERTER_STATUS.LOST,
  );
  return {
    time: isoUtc(now),
    status: anyError ? 2 : 1,
    battery_power: Math.round(battery),
    battery_wh_remaining: Math.round(whRemaining),
    calculated_load_power: Math.round(load),
    car_power: 0,
    grid_power: Math.round(grid),
    measured_load_power: Math.round(load),
    total_generation: Math.round(generation),
    error_code: 0,
    warning_code: anyError ? 1 : 0,
    inverters,
    meters,
  };
}

export const deviceRoutes: readonly Route[] = [
  {
    method: "GET",
    path: "/communication-device",
    scopes: ["api:inverter:list"],
    handle: (c) => paginate(devicesOf(c.world, [c.actor.account.username], c.now), pageQuery(c), c.url),
  },
  {
    method: "GET",
    path: "/communication-device/{communicationDevice_serial_number}",
    scopes: ["api:inverter:read"],
    handle: (c) => {
      const found = devicesOf(c.world, c.world.visibleAccounts(c.actor), c.now).find(
        (d) => d.serial_number === c.params.communicationDevice_serial_number,
      );
      return found ? ok(found) : notFound("Communication device not found.");
    },
  },
  {
    method: "GET",
    path: "/ems/{inverter_serial_number}/system-data/latest",
    scopes: ["api:inverter:read"],
    handle: (c) => {
      const ems = c.world.ems.get(c.params.inverter_serial_number ?? "");
      if (!ems || !c.world.canSee(c.actor, ems.account)) return notFound("EMS not found.");
      return ok(emsSystemDataBody(ems, c.now));
    },
  },
];
