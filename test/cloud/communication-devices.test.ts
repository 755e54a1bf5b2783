import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { MOCK_TOKEN, mockCloud, pageOf } from "../helpers/mock-cloud.js";

const FIXTURE: unknown = JSON.parse(
  readFileSync(new URL("../fixtures/communication-device.example.json", import.meta.url), "utf8"),
);

const DEVICE = {
  serial_number: "WK0000G000",
  type: "WIFI",
  firmware_version: null,
  commission_date: "2025-09-23T00:00:00Z",
  inverter: {
    serial: "SA0000G000",
    status: "NORMAL",
    last_online: "2025-09-26T18:28:23Z",
    last_updated: "2025-09-26T18:28:23Z",
    commission_date: "2024-08-16T00:00:00Z",
    info: { battery_type: "LITHIUM", battery: { nominal_capacity: 186, nominal_voltage: 51.2 }, model: "GIV-HY3.6" },
    warranty: { type: "Standard", expiry_date: "2027-12-14T00:00:00Z" },
    firmware_version: { ARM: 193, DSP: null },
    connections: { batteries: [] },
    flags: ["is-controllable"],
  },
};

describe("communication devices section", () => {
  let cloud = mockCloud();
  afterEach(async () => {
    await cloud.close();
    cloud = mockCloud();
  });

  it("GET /communication-device sends the headers and page query and parses the recorded list", async () => {
    cloud.reply("GET", "/communication-device", { body: FIXTURE });
    const devices = await cloud.client.communicationDevices.list().all();
    const request = cloud.only();
    expect(request.method).toBe("GET");
    expect(request.path).toBe("/v1/communication-device?page=1&pageSize=100");
    expect(request.headers.authorization).toBe(`Bearer ${MOCK_TOKEN}`);
    expect(request.headers.accept).toBe("application/json");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.body).toBeUndefined();

    expect(devices).toHaveLength(1);
    const device = devices[0];
    expect(device?.serial_number).toBe("WK0000G000");
    expect(device?.type).toBe("GPRS");
    expect(device?.firmware_version).toBe(904);
    expect(device?.site_id).toBe(61435);
    expect(device?.inverter?.serial).toBe("SA0000G000");
    expect(device?.inverter?.info?.model).toBe("GIV-HY3.6");
    expect(device?.inverter?.info?.max_discharge_rate).toBeUndefined();
    expect(device?.inverter?.firmware_version).toEqual({ ARM: 193, DSP: 190 });
    expect(device?.inverter?.connections?.batteries[0]?.capacity).toEqual({ full: 184.82, design: 186 });
    expect(device?.inverter?.connections?.meters).toEqual([]);
    expect(device?.inverter?.flags).toEqual(["full-power-discharge-in-eco-mode"]);
  });

  it("pages through every device using links and meta", async () => {
    cloud.reply("GET", "/communication-device", { body: pageOf([DEVICE, { ...DEVICE, serial_number: "WK2" }], 1, 2) });
    cloud.reply("GET", "/communication-device", { body: pageOf([{ ...DEVICE, serial_number: "WK3" }], 2, 2) });
    const devices = await cloud.client.communicationDevices.list({ pageSize: 2 }).all();
    expect(devices.map((d) => d.serial_number)).toEqual(["WK0000G000", "WK2", "WK3"]);
    expect(cloud.requests.map((r) => r.path)).toEqual([
      "/v1/communication-device?page=1&pageSize=2",
      "/v1/communication-device?page=2&pageSize=2",
    ]);
  });

  it("stops after one page when meta is missing and links.next is null", async () => {
    cloud.reply("GET", "/communication-device", {
      body: { data: [DEVICE], links: { first: "x?page=1", last: null, prev: null, next: null } },
    });
    const devices = await cloud.client.communicationDevices.list().all();
    expect(devices).toHaveLength(1);
    expect(cloud.requests).toHaveLength(1);
  });

  it("follows links.next when meta is missing", async () => {
    cloud.reply("GET", "/communication-device", {
      body: { data: [DEVICE], links: { first: "x?page=1", last: null, prev: null, next: "x?page=2" } },
    });
    cloud.reply("GET", "/communication-device", {
      body: {
        data: [{ ...DEVICE, serial_number: "WK2" }],
        links: { first: "x?page=1", last: null, prev: "x?page=1", next: null },
      },
    });
    const devices = await cloud.client.communicationDevices.list({ pageSize: 1 }).all();
    expect(devices.map((d) => d.serial_number)).toEqual(["WK0000G000", "WK2"]);
    expect(cloud.requests.map((r) => r.path)).toEqual([
      "/v1/communication-device?page=1&pageSize=1",
      "/v1/communication-device?page=2&pageSize=1",
    ]);
  });

  it("GET /communication-device/{serial} encodes the serial as one path segment and unwraps data", async () => {
    cloud.reply("GET", "/communication-device/WK0000G000", { body: { data: DEVICE } });
    const device = await cloud.client.communicationDevices.get("WK0000G000");
    const request = cloud.only();
    expect(request.method).toBe("GET");
    expect(request.path).toBe("/v1/communication-device/WK0000G000");
    expect(request.headers.authorization).toBe(`Bearer ${MOCK_TOKEN}`);
    expect(request.headers.accept).toBe("application/json");
    expect(request.body).toBeUndefined();
    expect(device.type).toBe("WIFI");
    expect(device.firmware_version).toBeNull();
    expect(device.site_id).toBeUndefined();
    expect(device.inverter?.firmware_version?.DSP).toBeNull();
    expect(device.inverter?.connections?.meters).toEqual([]);
    expect(device.inverter?.flags).toContain("is-controllable");
  });

  it("escapes a serial that contains a slash", async () => {
    cloud.reply("GET", "/communication-device/WK%2F1", { body: { data: DEVICE } });
    await cloud.client.communicationDevices.get("WK/1");
    expect(cloud.only().path).toBe("/v1/communication-device/WK%2F1");
  });

  it("names the endpoint and field when a device does not fit", async () => {
    cloud.reply("GET", "/communication-device/WK0000G000", { body: { data: { ...DEVICE, serial_number: 12 } } });
    await expect(cloud.client.communicationDevices.get("WK0000G000")).rejects.toMatchObject({
      name: "ResponseShapeError",
      field: "data.serial_number",
      message: expect.stringContaining("GET /communication-device/{communicationDevice_serial_number}"),
    });
  });
});
