import { afterEach, describe, expect, it } from "vitest";
import { InvalidRequestError } from "../../src/cloud/errors.js";
import { inverterDataEndpoints } from "../../src/cloud/sections/inverter-data.js";
import { type CapturedRequest, MOCK_TOKEN, mockCloud, pageOf } from "../helpers/mock-cloud.js";

// Copied from test/fixtures/system-data-latest.example.json (shape recorded by public clients).
const SYSTEM_DATA_LATEST = {
  data: {
    time: "2025-02-09T15:00:03Z",
    status: "Normal",
    solar: {
      power: 131,
      arrays: [
        { array: 1, voltage: 251.7, current: 0.3, power: 77 },
        { array: 2, voltage: 144.2, current: 0.3, power: 54 },
      ],
    },
    grid: { voltage: 237.1, current: 4.2, power: 151, frequency: 50.05 },
    battery: { percent: 60, power: 902, temperature: 12 },
    inverter: { temperature: 27.2, power: 1029, output_voltage: 237.8, output_frequency: 50.06, eps_power: 10 },
    consumption: 878,
  },
};

// Copied from test/fixtures/meter-data-latest.example.json.
const METER_DATA_LATEST = {
  data: {
    time: "2025-02-09T15:20:10Z",
    today: {
      solar: 1.7,
      grid: { import: 36.9, export: 0.8 },
      battery: { charge: 10.2, discharge: 5.4 },
      consumption: 32.4,
      ac_charge: 10.6,
    },
    total: {
      solar: 6539.5,
      grid: { import: 19508.4, export: 3230.3 },
      battery: { charge: 7290.95, discharge: 7290.95 },
      consumption: 21566.6,
      ac_charge: 6350.8,
    },
    is_metered: true,
  },
};

function dataPoint(time: string, solarPower: number) {
  return {
    time,
    status: "NORMAL",
    power: {
      solar: { power: solarPower, arrays: [{ array: 1, voltage: 251.7, current: 0.3, power: solarPower }] },
      grid: { voltage: 237.1, current: 4.2, power: -151, frequency: 50.05 },
      battery: { percent: 60, power: 902, temperature: 12 },
      consumption: { power: 878 },
      inverter: { temperature: 27.2, power: 1029, output_voltage: 237.8, output_frequency: 50.06, eps_power: 10 },
    },
    today: METER_DATA_LATEST.data.today,
    total: METER_DATA_LATEST.data.total,
    is_metered: true,
  };
}

function expectGet(request: CapturedRequest | undefined, path: string): void {
  expect(request?.method).toBe("GET");
  expect(request?.path).toBe(path);
  expect(request?.headers.authorization).toBe(`Bearer ${MOCK_TOKEN}`);
  expect(request?.headers.accept).toBe("application/json");
  expect(request?.headers["content-type"]).toBe("application/json");
  expect(request?.body).toBeUndefined();
}

describe("inverter data section", () => {
  let cloud = mockCloud();
  afterEach(async () => {
    await cloud.close();
    cloud = mockCloud();
  });

  it("GET events puts start, end and cleared=1 in the query and reads uncleared events with a null end_time", async () => {
    cloud.reply("GET", "/inverter/SA1/events", {
      body: pageOf(
        [
          { event: "Battery Over Temperature", start_time: "2025-02-09T10:00:00Z", end_time: "2025-02-09T10:30:00Z" },
          { event: "Grid Lost", start_time: "2025-02-09T12:00:00Z", end_time: null },
        ],
        1,
        1,
      ),
    });
    const events = await cloud.client.inverterData
      .events("SA1", { start: "2025-02-01T00:00:00Z", end: "2025-02-09T23:59:59Z", cleared: true })
      .all();
    expectGet(
      cloud.only(),
      "/v1/inverter/SA1/events?start=2025-02-01T00%3A00%3A00Z&end=2025-02-09T23%3A59%3A59Z&cleared=1&page=1&pageSize=100",
    );
    expect(events).toEqual([
      { event: "Battery Over Temperature", start_time: "2025-02-09T10:00:00Z", end_time: "2025-02-09T10:30:00Z" },
      { event: "Grid Lost", start_time: "2025-02-09T12:00:00Z", end_time: null },
    ]);
    // The reference shows no scope for this endpoint.
    expect(inverterDataEndpoints.events.scopes).toEqual([]);
  });

  it("GET events sends cleared=0 for false and leaves out what was not given", async () => {
    cloud.reply("GET", "/inverter/SA1/events", { body: pageOf([], 1, 1) });
    const events = await cloud.client.inverterData.events("SA1", { cleared: false }, { pageSize: 20 }).all();
    expectGet(cloud.only(), "/v1/inverter/SA1/events?cleared=0&page=1&pageSize=20");
    expect(events).toEqual([]);
  });

  it("refuses an events start that is not a datetime without sending anything", () => {
    expect(() => cloud.client.inverterData.events("SA1", { start: "yesterday" })).toThrow(InvalidRequestError);
    expect(cloud.requests).toHaveLength(0);
  });

  it("GET data-points/{date} walks two pages and reads the full nested shape", async () => {
    cloud.reply("GET", "/inverter/SA1/data-points/2025-02-09", {
      body: pageOf([dataPoint("2025-02-09T00:00:00Z", 0), dataPoint("2025-02-09T00:05:00Z", 12)], 1, 2),
    });
    cloud.reply("GET", "/inverter/SA1/data-points/2025-02-09", {
      // The local datetime form is accepted too.
      body: pageOf([dataPoint("2025-02-09 00:10:00", 25)], 2, 2),
    });
    const points = await cloud.client.inverterData.dataPoints("SA1", "2025-02-09", { pageSize: 2 }).all();
    expect(cloud.requests).toHaveLength(2);
    expectGet(cloud.requests[0], "/v1/inverter/SA1/data-points/2025-02-09?page=1&pageSize=2");
    expectGet(cloud.requests[1], "/v1/inverter/SA1/data-points/2025-02-09?page=2&pageSize=2");
    expect(points.map((p) => p.time)).toEqual(["2025-02-09T00:00:00Z", "2025-02-09T00:05:00Z", "2025-02-09 00:10:00"]);
    const last = points[2];
    expect(last?.power?.solar?.power).toBe(25);
    expect(last?.power?.solar?.arrays).toEqual([{ array: 1, voltage: 251.7, current: 0.3, power: 25 }]);
    expect(last?.power?.grid?.power).toBe(-151);
    expect(last?.power?.consumption).toEqual({ power: 878 });
    expect(last?.power?.inverter?.eps_power).toBe(10);
    expect(last?.today?.grid?.import).toBe(36.9);
    expect(last?.total?.battery?.discharge).toBe(7290.95);
    expect(last?.is_metered).toBe(true);
  });

  it("reads a LOST data point whose values are null or missing", async () => {
    cloud.reply("GET", "/inverter/SA1/data-points/2025-02-09", {
      body: pageOf(
        [
          {
            time: "2025-02-09T03:00:00Z",
            status: "LOST",
            power: {
              solar: { power: null, arrays: null },
              grid: { voltage: null, current: null, power: null, frequency: null },
              battery: { percent: null, power: null, temperature: null },
              consumption: 0,
              inverter: null,
            },
            today: null,
            total: { solar: "6539.5", grid: { import: null, export: null }, battery: null },
            is_metered: null,
          },
        ],
        1,
        1,
      ),
    });
    const [point] = await cloud.client.inverterData.dataPoints("SA1", "2025-02-09").all();
    expectGet(cloud.only(), "/v1/inverter/SA1/data-points/2025-02-09?page=1&pageSize=100");
    expect(point?.status).toBe("LOST");
    expect(point?.power?.solar).toEqual({ power: null, arrays: [] });
    // A plain consumption number reads as {power}, like system-data's.
    expect(point?.power?.consumption).toEqual({ power: 0 });
    expect(point?.power?.inverter).toBeNull();
    expect(point?.total?.solar).toBe(6539.5);
  });

  it("refuses a date that is not YYYY-MM-DD without sending anything", () => {
    expect(() => cloud.client.inverterData.dataPoints("SA1", "2025-2-9")).toThrow(InvalidRequestError);
    expect(() => cloud.client.inverterData.dataPoints("SA1", "2025-02-09T00:00:00Z")).toThrow(InvalidRequestError);
    expect(cloud.requests).toHaveLength(0);
  });

  it("GET system-data/latest reads the recorded shape, consumption a plain number and status Normal", async () => {
    cloud.reply("GET", "/inverter/SA1%2F2/system-data/latest", { body: SYSTEM_DATA_LATEST });
    const live = await cloud.client.inverterData.systemDataLatest("SA1/2");
    expectGet(cloud.only(), "/v1/inverter/SA1%2F2/system-data/latest");
    expect(live.status).toBe("Normal");
    expect(live.consumption).toBe(878);
    expect(live.solar?.arrays.map((a) => a.power)).toEqual([77, 54]);
    expect(live.battery).toEqual({ percent: 60, power: 902, temperature: 12 });
    expect(live.grid?.frequency).toBe(50.05);
    expect(live.inverter?.output_voltage).toBe(237.8);
  });

  it("GET system-data/latest also reads consumption as {power}", async () => {
    cloud.reply("GET", "/inverter/SA1/system-data/latest", {
      body: { data: { ...SYSTEM_DATA_LATEST.data, consumption: { power: 512 } } },
    });
    const live = await cloud.client.inverterData.systemDataLatest("SA1");
    expect(live.consumption).toBe(512);
  });

  it("GET meter-data/latest reads today's and lifetime counters", async () => {
    cloud.reply("GET", "/inverter/SA1/meter-data/latest", { body: METER_DATA_LATEST });
    const meter = await cloud.client.inverterData.meterDataLatest("SA1");
    expectGet(cloud.only(), "/v1/inverter/SA1/meter-data/latest");
    expect(meter.time).toBe("2025-02-09T15:20:10Z");
    expect(meter.today?.grid).toEqual({ import: 36.9, export: 0.8 });
    expect(meter.today?.ac_charge).toBe(10.6);
    expect(meter.total?.consumption).toBe(21566.6);
    expect(meter.is_metered).toBe(true);
  });

  it("names the field when a data point does not fit", async () => {
    cloud.reply("GET", "/inverter/SA1/data-points/2025-02-09", {
      body: pageOf([{ ...dataPoint("2025-02-09T00:00:00Z", 1), time: "9 Feb" }], 1, 1),
    });
    await expect(cloud.client.inverterData.dataPoints("SA1", "2025-02-09").all()).rejects.toMatchObject({
      name: "ResponseShapeError",
      field: "data.0.time",
    });
  });
});
