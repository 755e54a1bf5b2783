import { afterEach, describe, expect, it } from "vitest";
import { InvalidRequestError } from "../../src/cloud/errors.js";
import { ENERGY_FLOW_GROUPINGS, ENERGY_FLOW_TYPES } from "../../src/cloud/schemas/inverter-data.js";
import type { EnergyFlowsQuery } from "../../src/cloud/sections/energy-flows.js";
import { type CapturedRequest, MOCK_TOKEN, mockCloud } from "../helpers/mock-cloud.js";

const TEXT_PLAIN = { "content-type": "text/plain; charset=UTF-8" };

const RECORDS = [
  {
    start_time: "2025-02-09 00:00:00",
    end_time: "2025-02-09 00:30:00",
    data: { "0": 0, "1": 0, "2": 0, "3": 0.21, "4": 1.5, "5": 0, "6": 0 },
  },
  {
    start_time: "2025-02-09 00:30:00",
    end_time: "2025-02-09 01:00:00",
    data: { "0": 0, "1": 0, "2": 0, "3": 0.19, "4": 1.48, "5": 0.02, "6": 0 },
  },
];

function expectPost(request: CapturedRequest | undefined, path: string, body: unknown): void {
  expect(request?.method).toBe("POST");
  expect(request?.path).toBe(path);
  expect(request?.headers.authorization).toBe(`Bearer ${MOCK_TOKEN}`);
  expect(request?.headers.accept).toBe("application/json");
  expect(request?.headers["content-type"]).toBe("application/json");
  expect(request?.body).toEqual(body);
}

describe("energy flows section", () => {
  let cloud = mockCloud();
  afterEach(async () => {
    await cloud.close();
    cloud = mockCloud();
  });

  it("POST energy-flows sends the JSON body and parses the answer declared text/plain", async () => {
    cloud.reply("POST", "/inverter/SA1/energy-flows", { body: { data: RECORDS }, headers: TEXT_PLAIN });
    const flows = await cloud.client.energyFlows.flows("SA1", {
      start_time: "2025-02-09 00:00:00",
      end_time: "2025-02-09 23:59:59",
      grouping: 0,
      types: [3, 4, 5],
    });
    expectPost(cloud.only(), "/v1/inverter/SA1/energy-flows", {
      start_time: "2025-02-09 00:00:00",
      end_time: "2025-02-09 23:59:59",
      grouping: 0,
      types: [3, 4, 5],
    });
    expect(flows).toHaveLength(2);
    expect(flows[0]?.start_time).toBe("2025-02-09 00:00:00");
    expect(flows[1]?.end_time).toBe("2025-02-09 01:00:00");
    expect(flows[1]?.data["4"]).toBe(1.48);
    expect(flows[1]?.data["5"]).toBe(0.02);
  });

  it("leaves types out when not given and accepts bare dates", async () => {
    cloud.reply("POST", "/inverter/SA1/energy-flows", {
      body: { data: [{ start_time: "2025-01-01 00:00:00", end_time: "2025-02-01 00:00:00", data: { "2": "3.5" } }] },
      headers: TEXT_PLAIN,
    });
    const flows = await cloud.client.energyFlows.flows("SA1", {
      start_time: "2025-01-01",
      end_time: "2025-02-01",
      grouping: 4,
    });
    expectPost(cloud.only(), "/v1/inverter/SA1/energy-flows", {
      start_time: "2025-01-01",
      end_time: "2025-02-01",
      grouping: 4,
    });
    expect(flows[0]?.data).toEqual({ "2": 3.5 });
  });

  it("reads data sent as a PHP list (keys 0..6 in order) and drops null values", async () => {
    cloud.reply("POST", "/inverter/SA1/energy-flows", {
      body: {
        data: [
          {
            start_time: "2025-02-09 00:00:00",
            end_time: "2025-02-10 00:00:00",
            data: [1.1, 2.2, 0.3, 4, null, 5.55, 0],
          },
          { start_time: "2025-02-10 00:00:00", end_time: "2025-02-11 00:00:00", data: [] },
        ],
      },
      headers: TEXT_PLAIN,
    });
    const flows = await cloud.client.energyFlows.flows("SA1", {
      start_time: "2025-02-09",
      end_time: "2025-02-11",
      grouping: 1,
    });
    expect(flows[0]?.data).toEqual({ "0": 1.1, "1": 2.2, "2": 0.3, "3": 4, "5": 5.55, "6": 0 });
    expect(flows[1]?.data).toEqual({});
  });

  it.each<[string, EnergyFlowsQuery, string]>([
    [
      "a grouping above 4",
      { start_time: "2025-02-09", end_time: "2025-02-10", grouping: 5 } as unknown as EnergyFlowsQuery,
      "grouping",
    ],
    [
      "a type above 6",
      { start_time: "2025-02-09", end_time: "2025-02-10", grouping: 1, types: [7] } as unknown as EnergyFlowsQuery,
      "types.0",
    ],
    ["an ISO datetime", { start_time: "2025-02-09T00:00:00Z", end_time: "2025-02-10", grouping: 1 }, "start_time"],
    [
      "an end before the start",
      { start_time: "2025-02-10 00:00:00", end_time: "2025-02-09 23:00:00", grouping: 0 },
      "end_time",
    ],
  ])("refuses %s locally, naming the field, and sends nothing", async (_, query, field) => {
    const attempt = cloud.client.energyFlows.flows("SA1", query);
    await expect(attempt).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(attempt).rejects.toMatchObject({ errors: { [field]: [expect.any(String)] } });
    expect(cloud.requests).toHaveLength(0);
  });

  it("is retried after a 503 since it only reads", async () => {
    cloud.reply("POST", "/inverter/SA1/energy-flows", { status: 503, body: { message: "maintenance" } });
    cloud.reply("POST", "/inverter/SA1/energy-flows", { body: { data: RECORDS }, headers: TEXT_PLAIN });
    const flows = await cloud.client.energyFlows.flows("SA1", {
      start_time: "2025-02-09",
      end_time: "2025-02-09",
      grouping: 0,
    });
    expect(cloud.requests).toHaveLength(2);
    expect(flows).toHaveLength(2);
  });

  it("names the grouping and type tables as the reference does", () => {
    expect(Object.keys(ENERGY_FLOW_GROUPINGS)).toEqual(["0", "1", "2", "3", "4"]);
    expect(ENERGY_FLOW_GROUPINGS[0].label).toBe("Half Hourly");
    expect(ENERGY_FLOW_GROUPINGS[4].name).toBe("TOTAL");
    expect(Object.values(ENERGY_FLOW_TYPES).map((t) => t.label)).toEqual([
      "PV to Home",
      "PV to Battery",
      "PV to Grid",
      "Grid to Home",
      "Grid to Battery",
      "Battery to Home",
      "Battery to Grid",
    ]);
  });
});
