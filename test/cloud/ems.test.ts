import { afterEach, describe, expect, it } from "vitest";
import {
  EMS_INVERTER_STATUS,
  EMS_METER_STATUS,
  EMS_METER_TYPE,
  EMS_STATUS,
  emsCodeName,
} from "../../src/vocabulary/index.js";
import { MOCK_TOKEN, mockCloud } from "../helpers/mock-cloud.js";

const SYSTEM_DATA = {
  time: "2025-09-26 18:30:12",
  status: 1,
  battery_power: -1250,
  battery_wh_remaining: 8400,
  calculated_load_power: 640,
  car_power: 0,
  grid_power: 35,
  measured_load_power: 655,
  total_generation: 1850,
  error_code: 0,
  warning_code: 0,
  inverters: [
    { active_power: 1250, number: 1, serial_number: "SA0000G001", soc: 54, status: 2, temperature: 31.5 },
    { active_power: null, number: 2, serial_number: null, soc: null, status: 7, temperature: null },
  ],
  meters: [
    { active_power: 35.2, number: 1, status: 1, type: 0 },
    { active_power: null, number: 2, status: 2, type: 1 },
  ],
};

describe("EMS section", () => {
  let cloud = mockCloud();
  afterEach(async () => {
    await cloud.close();
    cloud = mockCloud();
  });

  it("GET /ems/{serial}/system-data/latest sends the headers and parses the system data", async () => {
    cloud.reply("GET", "/ems/EM0000G000/system-data/latest", { body: { data: SYSTEM_DATA } });
    const system = await cloud.client.ems.systemDataLatest("EM0000G000");
    const request = cloud.only();
    expect(request.method).toBe("GET");
    expect(request.path).toBe("/v1/ems/EM0000G000/system-data/latest");
    expect(request.headers.authorization).toBe(`Bearer ${MOCK_TOKEN}`);
    expect(request.headers.accept).toBe("application/json");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.body).toBeUndefined();

    expect(system.time).toBe("2025-09-26 18:30:12");
    expect(system.battery_power).toBe(-1250);
    expect(system.total_generation).toBe(1850);
    expect(emsCodeName(EMS_STATUS, system.status)).toBe("NORMAL");
    expect(system.inverters).toHaveLength(2);
    expect(system.inverters[0]).toEqual({
      active_power: 1250,
      number: 1,
      serial_number: "SA0000G001",
      soc: 54,
      status: 2,
      temperature: 31.5,
    });
    expect(emsCodeName(EMS_INVERTER_STATUS, system.inverters[0]?.status)).toBe("ONLINE");
    expect(system.meters[0]?.active_power).toBe(35.2);
    expect(emsCodeName(EMS_METER_TYPE, system.meters[0]?.type)).toBe("GRID");
    expect(emsCodeName(EMS_METER_STATUS, system.meters[0]?.status)).toBe("ONLINE");
  });

  it("parses nulls in inverters and meters", async () => {
    cloud.reply("GET", "/ems/EM0000G000/system-data/latest", { body: { data: SYSTEM_DATA } });
    const system = await cloud.client.ems.systemDataLatest("EM0000G000");
    const idle = system.inverters[1];
    expect(idle?.active_power).toBeNull();
    expect(idle?.serial_number).toBeNull();
    expect(idle?.soc).toBeNull();
    expect(idle?.temperature).toBeNull();
    expect(emsCodeName(EMS_INVERTER_STATUS, idle?.status)).toBe("OFFLINE");
    expect(system.meters[1]?.active_power).toBeNull();
    expect(emsCodeName(EMS_METER_STATUS, system.meters[1]?.status)).toBe("OFFLINE");
    expect(emsCodeName(EMS_METER_TYPE, system.meters[1]?.type)).toBe("GENERATION");
  });

  it("accepts a null time and null inverter and meter lists", async () => {
    cloud.reply("GET", "/ems/EM0000G000/system-data/latest", {
      body: { data: { ...SYSTEM_DATA, time: null, inverters: null, meters: null } },
    });
    const system = await cloud.client.ems.systemDataLatest("EM0000G000");
    expect(system.time).toBeNull();
    expect(system.inverters).toEqual([]);
    expect(system.meters).toEqual([]);
  });

  it("encodes the EMS serial as one path segment", async () => {
    cloud.reply("GET", "/ems/EM%20%2F1/system-data/latest", { body: { data: SYSTEM_DATA } });
    await cloud.client.ems.systemDataLatest("EM /1");
    expect(cloud.only().path).toBe("/v1/ems/EM%20%2F1/system-data/latest");
  });

  it("refuses an inverter entry without its status, naming the field", async () => {
    const { status, ...noStatus } = SYSTEM_DATA.inverters[0] ?? { status: 0 };
    cloud.reply("GET", "/ems/EM0000G000/system-data/latest", {
      body: { data: { ...SYSTEM_DATA, inverters: [noStatus] } },
    });
    await expect(cloud.client.ems.systemDataLatest("EM0000G000")).rejects.toMatchObject({
      name: "ResponseShapeError",
      field: "data.inverters.0.status",
    });
  });
});

describe("EMS code tables", () => {
  it("map every documented code to its name", () => {
    expect(EMS_STATUS).toEqual({ 0: "WAITING", 1: "NORMAL", 2: "WARNING", 3: "ERROR", 4: "UPDATING", 5: "BYPASS" });
    expect(EMS_INVERTER_STATUS).toEqual({
      0: "DISABLED",
      1: "WAITING",
      2: "ONLINE",
      3: "WARNING",
      4: "ERROR",
      5: "FLASH",
      7: "OFFLINE",
    });
    expect(EMS_METER_STATUS).toEqual({ 0: "DISABLED", 1: "ONLINE", 2: "OFFLINE" });
    expect(EMS_METER_TYPE).toEqual({ 0: "GRID", 1: "GENERATION", 2: "LOAD", 3: "OTHER" });
  });

  it("give undefined for undocumented, null or inherited codes", () => {
    expect(emsCodeName(EMS_INVERTER_STATUS, 6)).toBeUndefined();
    expect(emsCodeName(EMS_STATUS, null)).toBeUndefined();
    expect(emsCodeName(EMS_STATUS, undefined)).toBeUndefined();
    expect(emsCodeName(EMS_METER_TYPE, -1)).toBeUndefined();
  });
});
