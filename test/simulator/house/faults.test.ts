import { describe, expect, it } from "vitest";
import { inverterFaultEvent, systemData } from "../../../src/cloud/schemas/inverter-data.js";
import { InverterModel } from "../../../src/simulator/house/index.js";
import { dayOf } from "../../../src/time/local-days.js";
import { at, batteryW, house, MapSettings, num, ZONE } from "./helpers.js";

const NAMES = ["Grid Voltage High", "Battery Over Temperature", "Arc Fault", "Communication Lost"];
const settings = () => new MapSettings([[24, true]]);

function faultyHouse(startMs: number): InverterModel {
  return new InverterModel(house({ faultsPerMonth: 20 }), settings(), 3, startMs);
}

describe("fault events", () => {
  const model = faultyHouse(at("2025-03-01"));
  const all = model.events({ cleared: true });

  it("come from the seed at about the monthly rate, all cleared in the past", () => {
    expect(all.length).toBeGreaterThan(14 * 20 * 0.7);
    expect(all.length).toBeLessThan(14 * 20 * 1.3);
    for (const event of all) {
      inverterFaultEvent.parse(event);
      expect(NAMES).toContain(event.event);
      expect(event.end_time).not.toBeNull();
      expect(Date.parse(event.start_time)).toBeGreaterThanOrEqual(at("2024-01-01"));
    }
    expect(faultyHouse(at("2025-03-01")).events({ cleared: true })).toEqual(all);
    expect(model.events({ cleared: false })).toEqual([]);
    const window = model.events({ cleared: true, startMs: at("2024-06-01"), endMs: at("2024-07-01") });
    expect(window.length).toBeGreaterThan(5);
    expect(window.every((event) => Date.parse(event.end_time ?? "") > at("2024-06-01"))).toBe(true);
  });

  it("while a fault lasts: status ERROR (LOST for lost communication) and an uncleared event", () => {
    for (const name of ["Arc Fault", "Communication Lost"]) {
      const fault = all.find((event) => event.event === name && Date.parse(event.start_time) > at("2024-03-01"));
      expect(fault).toBeDefined();
      const startMs = Date.parse(fault?.start_time ?? "");
      const during = faultyHouse(startMs + 60_000);
      expect(during.status()).toBe(name === "Arc Fault" ? "ERROR" : "LOST");
      const open = during.events({ cleared: false });
      expect(open).toContainEqual({ event: name, start_time: fault?.start_time, end_time: null });

      const points = model.dataPoints(dayOf(startMs, ZONE));
      const inside = points.filter((point) => {
        const ms = Date.parse(point.time);
        return ms >= startMs && ms < Date.parse(fault?.end_time ?? "");
      });
      if (name === "Communication Lost") {
        expect(inside).toEqual([]);
      } else {
        for (const point of inside) {
          expect(point.status).toBe("ERROR");
          expect(num(point.power?.solar?.power)).toBe(0);
          expect(batteryW(point)).toBe(0);
        }
      }
    }
  });
});

describe("offline switch", () => {
  it("goes LOST, freezes the latest values and leaves a gap in the data points", () => {
    const model = new InverterModel(house(), settings(), 3, at("2025-02-10", "08:00"));
    model.advanceTo(at("2025-02-10", "09:00"));
    const before = model.systemDataLatest();
    model.setOffline(true);
    expect(model.status()).toBe("LOST");
    model.advanceTo(at("2025-02-10", "10:00"));
    const stale = systemData.parse(model.systemDataLatest());
    expect(stale.time).toBe(before.time);
    expect(stale.status).toBe("Lost");
    expect(model.meterDataLatest().time).toBe("2025-02-10T09:00:00Z");
    model.setOffline(false);
    expect(model.status()).toBe("NORMAL");
    model.advanceTo(at("2025-02-10", "11:00"));
    const times = model.dataPoints("2025-02-10").map((point) => Date.parse(point.time));
    expect(times.filter((ms) => ms >= at("2025-02-10", "09:00") && ms < at("2025-02-10", "10:00"))).toEqual([]);
    expect(times.filter((ms) => ms >= at("2025-02-10", "10:00"))).toHaveLength(12);
    expect(times.filter((ms) => ms < at("2025-02-10", "09:00"))).toHaveLength(108);
    expect(model.meterDataLatest().time).toBe("2025-02-10T11:00:00Z");
  });

  it("can be set before the first advance without simulating anything", () => {
    const model = new InverterModel(house(), settings(), 3, at("2025-02-10", "08:00"));
    model.setOffline(true);
    expect(model.cacheStats()).toEqual({ summaryDays: 0, detailDays: 0 });
    expect(model.status()).toBe("LOST");
    model.advanceTo(at("2025-02-10", "09:00"));
    expect(model.systemDataLatest().time).toBe("2025-02-10T08:00:00Z");
  });
});
