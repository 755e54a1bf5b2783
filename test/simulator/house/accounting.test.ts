import { describe, expect, it } from "vitest";
import {
  energyFlowRecord,
  inverterDataPoint,
  meterData,
  systemData,
} from "../../../src/cloud/schemas/inverter-data.js";
import { daySimulations, InverterModel } from "../../../src/simulator/house/index.js";
import { at, type FlowRecord, flowSum, house, MapSettings, num, type Point } from "./helpers.js";

const ECO = () =>
  new MapSettings([
    [24, true],
    [71, 10],
    [66, true],
    [64, "00:30"],
    [65, "04:30"],
    [101, 90],
  ]);

/** Commissioned 2024-01-01, started mid-2025: everything asked below is history. */
function historyHouse(seed = 5): InverterModel {
  return new InverterModel(house({ faultsPerMonth: 0 }), ECO(), seed, at("2025-06-20", "12:00"));
}

const round2 = (value: number): number => Math.round(value * 100) / 100;

type Totals = NonNullable<Point["today"]>;
/** solar, import, export, charge, discharge, consumption, ac_charge */
function counters(totals: Totals | null | undefined): number[] {
  return [
    num(totals?.solar),
    num(totals?.grid?.import),
    num(totals?.grid?.export),
    num(totals?.battery?.charge),
    num(totals?.battery?.discharge),
    num(totals?.consumption),
    num(totals?.ac_charge),
  ];
}

/** The counters implied by flow records. */
function countersOfFlows(records: readonly FlowRecord[]): number[] {
  const f = (type: number) => flowSum(records, type);
  return [f(0) + f(1) + f(2), f(3) + f(4), f(2) + f(6), f(1) + f(4), f(5) + f(6), f(0) + f(3) + f(5), f(4)];
}

function expectClose(actual: readonly number[], expected: readonly number[], tolerance: number): void {
  actual.forEach((value, index) => {
    expect(
      Math.abs(value - (expected[index] ?? 0)),
      `counter ${index}: ${value} vs ${expected[index]}`,
    ).toBeLessThanOrEqual(tolerance);
  });
}

describe("data points", () => {
  it("a full day has 288 points every 5 minutes from local midnight", () => {
    const points = historyHouse().dataPoints("2025-02-10");
    expect(points).toHaveLength(288);
    expect(points[0]?.time).toBe("2025-02-10T00:00:00Z");
    expect(points.map((point) => Date.parse(point.time))).toEqual(
      points.map((_, index) => at("2025-02-10") + index * 300_000),
    );
    for (const point of points) {
      expect(point.is_metered).toBe(true);
      expect(point.status).toBe("NORMAL");
      inverterDataPoint.parse(point);
    }
  });

  it("DST days have 276 and 300 points, on the local 5-minute grid", () => {
    const model = historyHouse();
    const spring = model.dataPoints("2025-03-30");
    expect(spring).toHaveLength(276);
    expect(spring[12]?.time).toBe("2025-03-30T01:00:00Z");
    const autumn = new InverterModel(house(), ECO(), 5, at("2025-11-02")).dataPoints("2025-10-26");
    expect(autumn).toHaveLength(300);
    expect(autumn[0]?.time).toBe("2025-10-25T23:00:00Z");
    expect(autumn[299]?.time).toBe("2025-10-26T23:55:00Z");
  });

  it("every point balances: solar + battery = consumption + grid (W, rounded)", () => {
    for (const point of historyHouse().dataPoints("2025-05-05")) {
      const power = point.power;
      const balance =
        num(power?.solar?.power) + num(power?.battery?.power) - num(power?.grid?.power) - num(consumptionW(point));
      expect(Math.abs(balance)).toBeLessThanOrEqual(3);
    }
  });

  it("today's counters balance and equal the day's flows; totals grow by exactly today's counters", () => {
    const model = historyHouse();
    const day = "2025-04-12";
    const points = model.dataPoints(day);
    const last = points[287];
    expect(last?.time).toBe("2025-04-12T22:55:00Z");
    for (const point of points) {
      const [solar = 0, imported = 0, exported = 0, charge = 0, discharge = 0, consumption = 0] = counters(point.today);
      expect(Math.abs(solar + imported + discharge - (consumption + exported + charge))).toBeLessThanOrEqual(0.03);
    }

    const halfHours = model.energyFlows({ start: `${day} 00:00:00`, end: `${day} 23:55:00`, grouping: 0 });
    expect(halfHours).toHaveLength(48);
    expect(halfHours[47]?.end_time).toBe(`${day} 23:55:00`);
    expectClose(counters(last?.today), countersOfFlows(halfHours), 0.25);
    const whole = model.energyFlows({ start: `${day} 00:00:00`, end: `${day} 23:55:00`, grouping: 4 });
    expectClose(counters(last?.today), countersOfFlows(whole), 0.021);

    const base = counters(points[0]?.total);
    for (const point of points) {
      const today = counters(point.today);
      expect(counters(point.total).map((total, index) => round2(total - (base[index] ?? 0)))).toEqual(today);
    }

    const next = model.dataPoints("2025-04-13")[0];
    expect(counters(next?.today)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    const dayCounters = counters(next?.total).map((total, index) => round2(total - (base[index] ?? 0)));
    const daily = model.energyFlows({ start: day, end: "2025-04-13", grouping: 1 });
    expectClose(dayCounters, countersOfFlows(daily), 0.021);
  });

  it("none before commissioning or after now", () => {
    const model = new InverterModel(
      house({ commissionDate: at("2025-01-15", "16:00") }),
      ECO(),
      5,
      at("2025-01-16", "12:00"),
    );
    expect(model.dataPoints("2025-01-14")).toEqual([]);
    expect(model.dataPoints("2025-01-17")).toEqual([]);
    expect(model.dataPoints("not a date")).toEqual([]);
    expect(model.dataPoints("2025-01-32")).toEqual([]);
    const first = model.dataPoints("2025-01-15");
    expect(first).toHaveLength(96);
    expect(first[0]?.time).toBe("2025-01-15T16:00:00Z");
    const today = model.dataPoints("2025-01-16");
    expect(today).toHaveLength(144);
    expect(today.at(-1)?.time).toBe("2025-01-16T11:55:00Z");
  });
});

function consumptionW(point: Point): unknown {
  const value = point.power?.consumption;
  return typeof value === "object" && value !== null && "power" in value ? value.power : value;
}

describe("energy flows", () => {
  it("monthly, yearly and total groupings equal the sum of the daily records", () => {
    const model = historyHouse();
    const daily = model.energyFlows({ start: "2024-01-01", end: "2025-01-01", grouping: 1 });
    expect(daily).toHaveLength(366);
    const monthly = model.energyFlows({ start: "2024-01-01", end: "2025-01-01", grouping: 2 });
    expect(monthly).toHaveLength(12);
    expect(monthly[2]).toMatchObject({ start_time: "2024-03-01 00:00:00", end_time: "2024-04-01 00:00:00" });
    const yearly = model.energyFlows({ start: "2024-01-01", end: "2025-01-01", grouping: 3 });
    const total = model.energyFlows({ start: "2024-01-01", end: "2025-01-01", grouping: 4 });
    for (let type = 0; type < 7; type++) {
      const sumOfDays = flowSum(daily, type);
      expect(Math.abs(flowSum(monthly, type) - sumOfDays)).toBeLessThanOrEqual(2);
      expect(Math.abs(flowSum(yearly, type) - sumOfDays)).toBeLessThanOrEqual(2);
      expect(flowSum(total, type)).toBeCloseTo(flowSum(yearly, type), 2);
      for (const month of monthly) {
        const days = daily.filter((record) => record.start_time.slice(0, 7) === month.start_time.slice(0, 7));
        expect(Math.abs(flowSum([month], type) - flowSum(days, type))).toBeLessThanOrEqual(0.005 * days.length + 0.005);
      }
    }
    expect(flowSum(yearly, 0) + flowSum(yearly, 1) + flowSum(yearly, 2)).toBeGreaterThan(3000);
    for (const record of [...daily, ...monthly, ...yearly, ...total]) energyFlowRecord.parse(record);
  });

  it("filters types and rounds to 2 decimals", () => {
    const records = historyHouse().energyFlows({ start: "2025-05-01", end: "2025-05-02", grouping: 0, types: [4, 0] });
    expect(records).toHaveLength(48);
    for (const record of records) {
      expect(Object.keys(record.data as object)).toEqual(["0", "4"]);
      for (const value of Object.values(record.data as object)) expect(round2(num(value))).toBe(num(value));
    }
  });

  it("clips to commissioning and now, labelling intervals within the query", () => {
    const model = new InverterModel(
      house({ commissionDate: at("2025-01-15", "16:00") }),
      ECO(),
      5,
      at("2025-01-16", "12:00"),
    );
    const daily = model.energyFlows({ start: "2025-01-01", end: "2025-02-01", grouping: 1 });
    expect(daily.map((record) => record.start_time)).toEqual(["2025-01-15 00:00:00", "2025-01-16 00:00:00"]);
    const halfHourly = model.energyFlows({ start: "2025-01-16 10:00:00", end: "2025-01-16 14:00:00", grouping: 0 });
    expect(halfHourly.map((record) => record.start_time)).toEqual([
      "2025-01-16 10:00:00",
      "2025-01-16 10:30:00",
      "2025-01-16 11:00:00",
      "2025-01-16 11:30:00",
    ]);
    expect(model.energyFlows({ start: "2024-01-01", end: "2025-01-15", grouping: 2 })).toEqual([]);
    const fromMidday = model.energyFlows({ start: "2025-01-16 12:00:00", end: "2025-01-17", grouping: 4 });
    expect(fromMidday).toEqual([]);
  });
});

describe("live and history", () => {
  it("nothing is simulated at construction", () => {
    const before = daySimulations();
    const fleet = Array.from(
      { length: 1000 },
      (_, index) => new InverterModel(house({ serial: `SA${index}` }), ECO(), index, at("2025-06-20", "12:00")),
    );
    expect(daySimulations()).toBe(before);
    expect(fleet[999]?.cacheStats()).toEqual({ summaryDays: 0, detailDays: 0 });
    fleet[0]?.dataPoints("2024-01-03");
    expect(daySimulations()).toBeGreaterThan(before);
    expect(fleet[0]?.cacheStats().summaryDays).toBe(2);
  });

  it("history is deterministic by seed", () => {
    const query = { start: "2024-01-01", end: "2025-01-01", grouping: 2 } as const;
    expect(historyHouse(5).energyFlows(query)).toEqual(historyHouse(5).energyFlows(query));
    expect(historyHouse(5).dataPoints("2024-07-01")).toEqual(historyHouse(5).dataPoints("2024-07-01"));
    expect(historyHouse(6).energyFlows(query)).not.toEqual(historyHouse(5).energyFlows(query));
  });

  it("live integration with unchanged settings matches history, and SOC is continuous at the start", () => {
    const live = new InverterModel(house(), ECO(), 5, at("2024-06-20", "12:00"));
    for (let hour = 13; hour <= 24 * 5; hour += 7) live.advanceTo(at("2024-06-20") + hour * 3_600_000);
    live.advanceTo(at("2024-06-25", "18:00"));
    const history = historyHouse(5);
    const query = { start: "2024-06-19", end: "2024-06-25 18:00:00", grouping: 0 } as const;
    expect(live.energyFlows(query)).toEqual(history.energyFlows(query));
    expect(live.dataPoints("2024-06-20")).toEqual(history.dataPoints("2024-06-20"));
    expect(live.meterDataLatest().total).toEqual(history.dataPoints("2024-06-25")[216]?.total);
  });

  it("a settings write changes what the house does from now on, not its history", () => {
    const settings = new MapSettings([[24, true]]);
    const model = new InverterModel(house(), settings, 5, at("2025-01-15", "12:00"));
    const before = model.dataPoints("2025-01-10");
    settings.set(66, true);
    settings.set(64, "01:00");
    settings.set(65, "04:00");
    settings.set(101, 100);
    model.advanceTo(at("2025-01-16", "05:00"));
    expect(model.dataPoints("2025-01-10")).toEqual(before);
    const night = (date: string) =>
      model.energyFlows({ start: `${date} 01:00:00`, end: `${date} 04:00:00`, grouping: 4 });
    expect(flowSum(night("2025-01-14"), 4)).toBe(0);
    expect(flowSum(night("2025-01-16"), 4)).toBeGreaterThan(1);
  });

  it("advanceTo is idempotent and never goes back", () => {
    const model = historyHouse();
    model.advanceTo(at("2025-06-20", "15:00"));
    const meter = model.meterDataLatest();
    model.advanceTo(at("2025-06-20", "15:00"));
    model.advanceTo(at("2025-06-20", "13:00"));
    expect(model.meterDataLatest()).toEqual(meter);
    expect(meter.time).toBe("2025-06-20T14:00:00Z");
  });

  it("latest system and meter data parse as the wire schemas and agree with the accessors", () => {
    const model = historyHouse();
    model.advanceTo(at("2025-06-20", "13:02"));
    const system = systemData.parse(model.systemDataLatest());
    const meter = meterData.parse(model.meterDataLatest());
    expect(model.systemDataLatest().status).toBe("Normal");
    expect(system.battery?.power).toBe(Math.round(model.batteryPowerW()));
    expect(system.grid?.power).toBe(Math.round(model.gridPowerW()));
    expect(system.solar?.power).toBe(Math.round(model.pvPowerW()));
    expect(system.consumption).toBe(Math.round(model.loadPowerW()));
    expect(system.battery?.percent).toBe(Math.round(model.socPercent()));
    expect(model.temperatureC()).toBeGreaterThan(0);
    expect(meter.is_metered).toBe(true);
    expect(model.status()).toBe("NORMAL");
  });
});
