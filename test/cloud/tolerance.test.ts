import { afterEach, describe, expect, it } from "vitest";
import { ResponseShapeError } from "../../src/cloud/errors.js";
import { mockCloud } from "../helpers/mock-cloud.js";

/*
 * The real service is looser than the reference: PHP's `[]` for an empty object, null where a
 * device has nothing, versions as numbers or strings, models and fields not yet seen. The
 * client reads all of it; what it still cannot read fails that one call, naming the field.
 */

const SERIAL = "GW2315G357";
const UUID = "9c6f3c1e-6b2a-4f3e-9a51-2b7d1c0e8f44";

async function shapeError(call: Promise<unknown>): Promise<ResponseShapeError> {
  const error: unknown = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ResponseShapeError);
  return error as ResponseShapeError;
}

describe("the client reads the real service's loose answers", () => {
  let cloud = mockCloud();
  afterEach(async () => {
    await cloud.close();
    cloud = mockCloud();
  });

  it("device list: [] for any object, null for what a device lacks, string versions, new models and fields", async () => {
    cloud.reply("GET", "/communication-device", {
      body: {
        data: [
          {
            serial_number: "EM2024E001",
            firmware_version: "D0.449-A0.449",
            type: "WIFI",
            commission_date: null,
            site_id: null,
            some_new_field: { nested: true },
            inverter: {
              serial: "EM2024E001",
              status: "SLEEPING",
              last_online: null,
              info: { battery_type: null, battery: [], model: "Plant EMS", max_charge_rate: null },
              warranty: [],
              firmware_version: { ARM: "A0.449", DSP: null },
              connections: {
                batteries: [
                  { module_number: 1, serial: 4316, firmware_version: "3017", capacity: [], cell_count: null },
                ],
                meters: [{ address: 1, serial_number: "SN-2075078", manufacturer_code: 3510960161 }],
              },
              flags: null,
              brand_new: "kept out, not refused",
            },
          },
          { serial_number: "WF0000A001", firmware_version: 904, inverter: [] },
          { serial_number: "WF0000A002", inverter: null },
          {
            serial_number: "WF0000A003",
            inverter: { serial: "SA0000G003", info: [], warranty: null, firmware_version: [], connections: [] },
          },
        ],
      },
    });
    const [ems, bare, none, empty] = await cloud.client.communicationDevices.list().all();
    expect(ems?.firmware_version).toBe("D0.449-A0.449");
    expect(ems?.inverter?.status).toBe("SLEEPING");
    expect(ems?.inverter?.info).toEqual({ battery_type: null, battery: {}, model: "Plant EMS", max_charge_rate: null });
    expect(ems?.inverter?.warranty).toEqual({});
    expect(ems?.inverter?.firmware_version).toEqual({ ARM: "A0.449", DSP: null });
    expect(ems?.inverter?.connections?.batteries).toEqual([
      { module_number: 1, serial: "4316", firmware_version: "3017", capacity: {}, cell_count: null },
    ]);
    expect(ems?.inverter?.connections?.meters).toEqual([
      { address: 1, serial_number: "SN-2075078", manufacturer_code: "3510960161" },
    ]);
    expect(ems?.inverter?.flags).toEqual([]);
    expect(bare?.firmware_version).toBe(904);
    expect(bare?.inverter).toBeUndefined();
    expect(none?.inverter).toBeNull();
    expect(empty?.inverter).toEqual({
      serial: "SA0000G003",
      info: {},
      warranty: null,
      firmware_version: {},
      connections: { batteries: [], meters: [] },
      flags: [],
    });
  });

  it("live data of a gateway: whole sections and every value may be null or []", async () => {
    cloud.reply("GET", `/inverter/${SERIAL}/system-data/latest`, {
      body: {
        data: {
          time: "2025-09-26T18:28:22Z",
          status: null,
          solar: null,
          grid: { voltage: null, current: null, power: "-151", frequency: null },
          battery: [],
          inverter: { temperature: null, power: null, output_voltage: null, output_frequency: null, eps_power: null },
          consumption: [],
        },
      },
    });
    const live = await cloud.client.inverterData.systemDataLatest(SERIAL);
    expect(live).toEqual({
      time: "2025-09-26T18:28:22Z",
      status: null,
      solar: null,
      grid: { voltage: null, current: null, power: -151, frequency: null },
      battery: {},
      inverter: { temperature: null, power: null, output_voltage: null, output_frequency: null, eps_power: null },
    });
  });

  it("counters of a device that has none: null time, null or [] sections", async () => {
    cloud.reply("GET", `/inverter/${SERIAL}/meter-data/latest`, {
      body: { data: { time: null, today: null, total: { solar: null, grid: [], battery: null }, is_metered: null } },
    });
    expect(await cloud.client.inverterData.meterDataLatest(SERIAL)).toEqual({
      time: null,
      today: null,
      total: { solar: null, grid: {}, battery: null },
      is_metered: null,
    });
  });

  it("data points with [] for power and totals", async () => {
    cloud.reply("GET", `/inverter/${SERIAL}/data-points/2025-09-26`, {
      body: { data: [{ time: "2025-09-26T00:05:00Z", status: "Normal", power: [], today: [], total: null }] },
    });
    expect(await cloud.client.inverterData.dataPoints(SERIAL, "2025-09-26").all()).toEqual([
      { time: "2025-09-26T00:05:00Z", status: "Normal", power: {}, today: {}, total: null },
    ]);
  });

  it("EV command data in the shapes real chargers answer", async () => {
    const base = `/ev-charger/${UUID}/commands`;
    cloud.reply("GET", `${base}/set-plug-and-go`, {
      body: { data: { value: true, disabled: true, message: "Plug and go is off while ID tags exist" } },
    });
    cloud.reply("GET", `${base}/set-plug-and-go`, { body: { data: true } });
    cloud.reply("GET", `${base}/set-plug-and-go`, { body: { data: null } });
    cloud.reply("GET", `${base}/change-mode`, {
      body: {
        data: [
          { active: false, available: true, title: "Solar", key: "SuperEco", image_path: "/eco.png" },
          { active: false, available: true, title: "Hybrid", key: "Eco" },
          { active: true, available: true, title: "Grid", key: "Boost" },
          { active: false, available: false, title: "Inverter Control", key: "ModbusSlave" },
        ],
      },
    });
    cloud.reply("GET", `${base}/set-active-schedule`, { body: { data: { schedule: null } } });
    cloud.reply("GET", `${base}/set-active-schedule`, { body: { data: { schedule: { id: 7, name: "Night" } } } });
    const api = cloud.client.evChargers;
    expect(await api.commandData(UUID, "set-plug-and-go")).toEqual({
      value: true,
      disabled: true,
      message: "Plug and go is off while ID tags exist",
    });
    expect(await api.commandData(UUID, "set-plug-and-go")).toEqual({ value: true, disabled: false, message: null });
    expect(await api.commandData(UUID, "set-plug-and-go")).toEqual({ value: null, disabled: false, message: null });
    expect(await api.commandData(UUID, "change-mode")).toEqual({
      active: "Boost",
      available: ["SuperEco", "Eco", "Boost"],
    });
    expect(await api.commandData(UUID, "set-active-schedule")).toEqual({ schedule_id: null });
    expect(await api.commandData(UUID, "set-active-schedule")).toEqual({ schedule_id: "7" });
  });
});

describe("a body the client still cannot read fails that call, naming the endpoint and the field", () => {
  let cloud = mockCloud();
  afterEach(async () => {
    await cloud.close();
    cloud = mockCloud();
  });

  it("names the field deep inside a PHP-tolerant object", async () => {
    cloud.reply("GET", "/communication-device", {
      body: {
        data: [
          {
            serial_number: "WF0000A001",
            inverter: { serial: "SA0000G001", connections: { batteries: [{ module_number: 1, serial: { odd: 1 } }] } },
          },
        ],
      },
    });
    const error = await shapeError(cloud.client.communicationDevices.list().all());
    expect(error.field).toBe("data.0.inverter.connections.batteries.0.serial");
    expect(error.message).toMatch(
      /^Get Communication Devices \(GET \/communication-device\): unexpected response shape at "data\.0\.inverter\.connections\.batteries\.0\.serial": /,
    );
  });

  it("names the field inside a lone object where a list was expected", async () => {
    cloud.reply("GET", `/inverter/${SERIAL}/settings`, {
      body: { data: { id: "ninety-six", name: "Meter Direction" } },
    });
    const error = await shapeError(cloud.client.inverterControl.settings(SERIAL));
    expect(error.field).toBe("data.id");
    expect(error.problem).toContain("expected number");
  });

  it("says a body is not JSON, and what was expected under data", async () => {
    cloud.reply("GET", `/inverter/${SERIAL}/presets`, { body: undefined });
    const empty = await shapeError(cloud.client.inverterControl.presets(SERIAL));
    expect(empty.field).toBe("data");
    expect(empty.problem).toBe("expected the preset list, but the body is empty");

    cloud.reply("GET", `/inverter/${SERIAL}/presets`, { body: { data: "Eco, Timed Charge" } });
    const text = await shapeError(cloud.client.inverterControl.presets(SERIAL));
    expect(text.field).toBe("data");
    expect(text.problem).toBe("expected the preset list (an array of presets)");
  });

  it("fails a smart device lookup whose list lacks the device, rather than answer with another", async () => {
    cloud.reply("GET", `/smart-device/${UUID}`, {
      body: {
        data: [{ uuid: "a9dc24e7-f14a-40cd-947d-f1a0e7ff7987" }, { uuid: "e9453fa4-ae59-4c6f-8d57-11dd65e07f16" }],
      },
    });
    const error = await shapeError(cloud.client.smartDevices.get(UUID));
    expect(error.field).toBe("data");
    expect(error.problem).toBe(
      `expected the smart device ${UUID}, but the answer lists only a9dc24e7-f14a-40cd-947d-f1a0e7ff7987, e9453fa4-ae59-4c6f-8d57-11dd65e07f16`,
    );
  });
});
