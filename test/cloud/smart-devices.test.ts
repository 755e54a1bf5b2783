import { afterEach, describe, expect, it } from "vitest";
import { InvalidRequestError } from "../../src/cloud/errors.js";
import { MOCK_TOKEN, mockCloud, pageOf } from "../helpers/mock-cloud.js";

const UUID = "9a1f3c2e-5b7d-4e8f-a012-3456789abcde";

const DEVICE = {
  uuid: UUID,
  alias: "Dishwasher",
  other_data: { graph_color: "#4caf50", hardware_id: "bf12345678", local_key: "a1b2c3d4", room: "kitchen" },
};

const POINT = { time: "2025-09-26T18:30:00Z", power: 1200 };

function expectJsonHeaders(headers: Record<string, string>): void {
  expect(headers.authorization).toBe(`Bearer ${MOCK_TOKEN}`);
  expect(headers.accept).toBe("application/json");
  expect(headers["content-type"]).toBe("application/json");
}

describe("smart devices section", () => {
  let cloud = mockCloud();
  afterEach(async () => {
    await cloud.close();
    cloud = mockCloud();
  });

  it("GET /smart-device pages and keeps other_data keys beyond the documented three", async () => {
    cloud.reply("GET", "/smart-device", {
      body: pageOf([DEVICE, { uuid: "u2", alias: null, other_data: null }], 1, 2),
    });
    cloud.reply("GET", "/smart-device", { body: pageOf([{ uuid: "u3" }], 2, 2) });
    const devices = await cloud.client.smartDevices.list({ pageSize: 2 }).all();
    expect(cloud.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /v1/smart-device?page=1&pageSize=2",
      "GET /v1/smart-device?page=2&pageSize=2",
    ]);
    for (const request of cloud.requests) {
      expectJsonHeaders(request.headers);
      expect(request.body).toBeUndefined();
    }
    expect(devices.map((d) => d.uuid)).toEqual([UUID, "u2", "u3"]);
    expect(devices[0]?.other_data).toEqual(DEVICE.other_data);
    expect(devices[1]?.alias).toBeNull();
    expect(devices[2]?.other_data).toBeUndefined();
  });

  it("GET /smart-device uses the client's page size and stops when links.next is null without meta", async () => {
    cloud.reply("GET", "/smart-device", { body: { data: [DEVICE], links: { next: null } } });
    const devices = await cloud.client.smartDevices.list().all();
    expect(cloud.only().path).toBe("/v1/smart-device?page=1&pageSize=100");
    expect(devices).toHaveLength(1);
  });

  it("POST /smart-device sends exactly the given fields and reads one device as an array", async () => {
    cloud.reply("POST", "/smart-device", { status: 201, body: { data: DEVICE } });
    const created = await cloud.client.smartDevices.create({
      serial_number: "bf12345678",
      alias: "Dishwasher",
      product_name: "Smart Plug",
      manufacturer: "Tuya",
      other_data: { graph_color: "#4caf50" },
    });
    const request = cloud.only();
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1/smart-device");
    expectJsonHeaders(request.headers);
    expect(request.body).toEqual({
      serial_number: "bf12345678",
      alias: "Dishwasher",
      product_name: "Smart Plug",
      manufacturer: "Tuya",
      other_data: { graph_color: "#4caf50" },
    });
    expect(created).toHaveLength(1);
    expect(created[0]?.uuid).toBe(UUID);
  });

  it("POST /smart-device sends only serial_number when nothing else is given and reads an array", async () => {
    cloud.reply("POST", "/smart-device", { body: { data: [DEVICE, { ...DEVICE, uuid: "u2" }] } });
    const created = await cloud.client.smartDevices.create({ serial_number: "bf12345678" });
    expect(cloud.only().body).toEqual({ serial_number: "bf12345678" });
    expect(created.map((d) => d.uuid)).toEqual([UUID, "u2"]);
  });

  it("refuses a blank serial number or a non-object other_data before sending", async () => {
    const blank = cloud.client.smartDevices.create({ serial_number: "  " });
    await expect(blank).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(blank).rejects.toMatchObject({ errors: { serial_number: ["serial_number is required"] } });
    await expect(
      cloud.client.smartDevices.create(
        JSON.parse('{"serial_number":"x","other_data":"colour"}') as { serial_number: string },
      ),
    ).rejects.toMatchObject({ name: "InvalidRequestError", errors: { other_data: [expect.any(String)] } });
    expect(cloud.requests).toHaveLength(0);
  });

  it("does not retry a create that failed on the server", async () => {
    cloud.reply("POST", "/smart-device", { status: 500, body: { message: "boom" } }, 3);
    await expect(cloud.client.smartDevices.create({ serial_number: "bf12345678" })).rejects.toMatchObject({
      name: "ServerError",
      status: 500,
    });
    expect(cloud.requests).toHaveLength(1);
  });

  it("GET /smart-device/{uuid} unwraps data", async () => {
    cloud.reply("GET", `/smart-device/${UUID}`, { body: { data: DEVICE } });
    const device = await cloud.client.smartDevices.get(UUID);
    const request = cloud.only();
    expect(request.method).toBe("GET");
    expect(request.path).toBe(`/v1/smart-device/${UUID}`);
    expectJsonHeaders(request.headers);
    expect(request.body).toBeUndefined();
    expect(device.alias).toBe("Dishwasher");
    expect(device.other_data?.local_key).toBe("a1b2c3d4");
  });

  it("GET /smart-device/{uuid}/data pages through the data points", async () => {
    cloud.reply("GET", `/smart-device/${UUID}/data`, { body: pageOf([POINT, { ...POINT, power: 0 }], 1, 2) });
    cloud.reply("GET", `/smart-device/${UUID}/data`, {
      body: pageOf([{ time: "2025-09-26T18:35:00Z", power: 850 }], 2, 2),
    });
    const points = await cloud.client.smartDevices.data(UUID, { pageSize: 2 }).all();
    expect(cloud.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /v1/smart-device/${UUID}/data?page=1&pageSize=2`,
      `GET /v1/smart-device/${UUID}/data?page=2&pageSize=2`,
    ]);
    expect(points).toEqual([POINT, { ...POINT, power: 0 }, { time: "2025-09-26T18:35:00Z", power: 850 }]);
  });

  it("POST /smart-device/{uuid}/data sends time and power and reads one point as an array", async () => {
    cloud.reply("POST", `/smart-device/${UUID}/data`, { status: 201, body: { data: POINT } });
    const saved = await cloud.client.smartDevices.addData(UUID, { time: "2025-09-26T18:30:00Z", power: 1200 });
    const request = cloud.only();
    expect(request.method).toBe("POST");
    expect(request.path).toBe(`/v1/smart-device/${UUID}/data`);
    expectJsonHeaders(request.headers);
    expect(request.body).toEqual({ time: "2025-09-26T18:30:00Z", power: 1200 });
    expect(saved).toEqual([POINT]);
  });

  it("sends a Date as a whole-second UTC datetime and reads several points", async () => {
    cloud.reply("POST", `/smart-device/${UUID}/data`, { body: { data: [POINT, POINT] } });
    const saved = await cloud.client.smartDevices.addData(UUID, {
      time: new Date(Date.UTC(2025, 8, 26, 18, 30, 0, 456)),
      power: 1200,
    });
    expect(cloud.only().body).toEqual({ time: "2025-09-26T18:30:00Z", power: 1200 });
    expect(saved).toHaveLength(2);
  });

  it("accepts a datetime with an offset", async () => {
    cloud.reply("POST", `/smart-device/${UUID}/data`, { body: { data: POINT } });
    await cloud.client.smartDevices.addData(UUID, { time: "2025-09-26T19:30:00+01:00", power: 5 });
    expect(cloud.only().body).toEqual({ time: "2025-09-26T19:30:00+01:00", power: 5 });
  });

  it("refuses a data point with a non-ISO time, an invalid Date or a fractional power before sending", async () => {
    await expect(
      cloud.client.smartDevices.addData(UUID, { time: "2025-09-26 18:30:00", power: 1200 }),
    ).rejects.toMatchObject({ name: "InvalidRequestError", errors: { time: [expect.any(String)] } });
    await expect(
      cloud.client.smartDevices.addData(UUID, { time: new Date(Number.NaN), power: 1200 }),
    ).rejects.toMatchObject({ name: "InvalidRequestError", errors: { time: [expect.any(String)] } });
    const fractional = cloud.client.smartDevices.addData(UUID, { time: "2025-09-26T18:30:00Z", power: 12.5 });
    await expect(fractional).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(fractional).rejects.toMatchObject({
      errors: { power: [expect.any(String)] },
      message: expect.stringContaining("Add Smart Device Data (POST /smart-device/{smartDevice_uuid}/data)"),
    });
    expect(cloud.requests).toHaveLength(0);
  });

  it("names the field when a returned data point does not fit", async () => {
    cloud.reply("POST", `/smart-device/${UUID}/data`, { body: { data: [POINT, { time: "later", power: 1 }] } });
    await expect(cloud.client.smartDevices.addData(UUID, POINT)).rejects.toMatchObject({
      name: "ResponseShapeError",
    });
  });
});
