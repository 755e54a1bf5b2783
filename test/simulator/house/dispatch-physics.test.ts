import { describe, expect, it } from "vitest";
import { CHARGE_EFFICIENCY, InverterModel } from "../../../src/simulator/house/index.js";
import { at, batteryW, flowOf, flowSum, gridW, house, MapSettings, pointsBetween, socOf } from "./helpers.js";

const DAY = "2025-01-15";
const NEXT = "2025-01-16";
const CAPACITY_WH = 9500;

/** A house commissioned and started at `time` on a January day, so history plays no part. */
function freshHouse(settings: MapSettings, time: string, initialSoc: number): InverterModel {
  const start = at(DAY, time);
  return new InverterModel(house({ commissionDate: start }, initialSoc), settings, 11, start);
}

describe("timed charge (AC charge slot)", () => {
  const slot = (upper: number, extra: [number, boolean | number | string][] = []) =>
    new MapSettings([[24, true], [66, true], [64, "01:00"], [65, "04:00"], [101, upper], [72, 3000], ...extra]);

  it("fills the battery from the grid at the charge limit, then holds at full", () => {
    const model = freshHouse(slot(100), "00:00", 30);
    model.advanceTo(at(DAY, "01:00"));
    const socAtStart = model.socPercent();
    model.advanceTo(at(DAY, "04:00"));
    const socAtEnd = model.socPercent();
    model.advanceTo(at(DAY, "05:00"));

    expect(socAtEnd).toBeCloseTo(100, 6);
    const points = model.dataPoints(DAY);
    const charging = pointsBetween(points, at(DAY, "01:00"), at(DAY, "03:00"));
    expect(charging).toHaveLength(24);
    for (const point of charging) {
      expect(batteryW(point)).toBe(-3000);
      expect(gridW(point)).toBeLessThanOrEqual(-3000);
    }
    const full = pointsBetween(points, at(DAY, "03:45"), at(DAY, "04:00"));
    for (const point of full) {
      expect(socOf(point)).toBe(100);
      expect(batteryW(point)).toBe(0);
    }

    const window = model.energyFlows({ start: `${DAY} 01:00:00`, end: `${DAY} 04:00:00`, grouping: 0 });
    expect(window).toHaveLength(6);
    for (const record of window.slice(0, 5)) expect(flowOf(record, 4)).toBeGreaterThan(0);
    const storedKwh = ((socAtEnd - socAtStart) / 100) * (CAPACITY_WH / 1000);
    expect(flowSum(window, 4) * CHARGE_EFFICIENCY).toBeCloseTo(storedKwh, 1);
    expect(Math.abs(flowSum(window, 4) * CHARGE_EFFICIENCY - storedKwh)).toBeLessThan(0.04);
    expect(flowSum(window, 5) + flowSum(window, 6)).toBe(0);
  });

  it("stops at the slot's upper SOC of 80", () => {
    const model = freshHouse(slot(80), "00:00", 10);
    model.advanceTo(at(DAY, "04:00"));
    expect(model.socPercent()).toBeGreaterThan(79.9);
    expect(model.socPercent()).toBeLessThanOrEqual(80 + 1e-9);
  });

  it("stops at the AC charge upper limit 77 when 17 enables it", () => {
    const model = freshHouse(
      slot(100, [
        [17, true],
        [77, 80],
      ]),
      "00:00",
      10,
    );
    model.advanceTo(at(DAY, "04:00"));
    expect(model.socPercent()).toBeGreaterThan(79.9);
    expect(model.socPercent()).toBeLessThanOrEqual(80 + 1e-9);
  });

  it("ignores 77 while 17 is off, and the slot while 66 is off", () => {
    const limited = freshHouse(slot(100, [[77, 50]]), "00:00", 30);
    limited.advanceTo(at(DAY, "04:00"));
    expect(limited.socPercent()).toBeCloseTo(100, 6);

    const disabled = freshHouse(slot(100, [[66, false]]), "00:00", 10);
    disabled.advanceTo(at(DAY, "04:00"));
    const flows = disabled.energyFlows({ start: DAY, end: NEXT, grouping: 4 });
    expect(flowSum(flows, 4)).toBe(0);
  });
});

describe("eco mode", () => {
  it("covers the evening load from the battery down to the reserve and not below", () => {
    const model = freshHouse(
      new MapSettings([
        [24, true],
        [71, 30],
      ]),
      "16:00",
      60,
    );
    model.advanceTo(at(NEXT, "07:00"));
    expect(model.socPercent()).toBeGreaterThanOrEqual(30 - 1e-9);
    expect(model.socPercent()).toBeLessThan(30.5);

    const evening = model.energyFlows({ start: `${DAY} 16:30:00`, end: `${DAY} 18:00:00`, grouping: 0 });
    for (const record of evening) {
      expect(flowOf(record, 5)).toBeGreaterThan(0);
      expect(flowOf(record, 3)).toBeLessThan(flowOf(record, 5));
    }
    const points = [...model.dataPoints(DAY), ...model.dataPoints(NEXT)];
    for (const point of points) expect(socOf(point)).toBeGreaterThanOrEqual(30);
    const drained = points.filter((point) => socOf(point) === 30);
    expect(drained.length).toBeGreaterThan(0);
    const night = model.energyFlows({ start: `${NEXT} 03:00:00`, end: `${NEXT} 06:00:00`, grouping: 4 });
    expect(flowSum(night, 5)).toBeLessThan(0.05);
    expect(flowSum(night, 3)).toBeGreaterThan(0.5);
  });

  it("with eco off, charges from surplus but does not discharge", () => {
    const model = freshHouse(new MapSettings([[24, false]]), "00:00", 60);
    model.advanceTo(at(NEXT, "00:00"));
    const day = model.energyFlows({ start: DAY, end: NEXT, grouping: 1 });
    expect(flowSum(day, 5) + flowSum(day, 6)).toBe(0);
    expect(flowSum(day, 1)).toBeGreaterThanOrEqual(0);
    expect(model.socPercent()).toBeGreaterThanOrEqual(60);
  });
});

describe("pause battery (96)", () => {
  it("pause discharge stops all discharge", () => {
    const model = freshHouse(
      new MapSettings([
        [24, true],
        [96, 2],
      ]),
      "16:00",
      60,
    );
    model.advanceTo(at(NEXT, "07:00"));
    for (const point of [...model.dataPoints(DAY), ...model.dataPoints(NEXT)]) {
      expect(batteryW(point)).toBeLessThanOrEqual(0);
    }
    const flows = model.energyFlows({ start: DAY, end: `${NEXT} 07:00:00`, grouping: 4 });
    expect(flowSum(flows, 5) + flowSum(flows, 6)).toBe(0);
  });

  it("holds only within 155..156 when both are set", () => {
    const model = freshHouse(
      new MapSettings([
        [24, true],
        [96, 2],
        [155, "18:00"],
        [156, "20:00:00"],
      ]),
      "16:00",
      90,
    );
    model.advanceTo(at(NEXT, "00:00"));
    const flows = model.energyFlows({ start: `${DAY} 16:00:00`, end: NEXT, grouping: 0 });
    const inWindow = flows.filter(
      (record) => record.start_time >= `${DAY} 18:00:00` && record.start_time < `${DAY} 20:00:00`,
    );
    const outside = flows.filter((record) => !inWindow.includes(record));
    expect(inWindow).toHaveLength(4);
    expect(flowSum(inWindow, 5)).toBe(0);
    expect(flowSum(outside, 5)).toBeGreaterThan(0.5);
  });

  it("pause charge stops charging from the grid", () => {
    const model = freshHouse(
      new MapSettings([
        [24, true],
        [66, "1"],
        [64, "01:00"],
        [65, "04:00"],
        [101, "100"],
        [96, "1"],
      ]),
      "00:00",
      10,
    );
    model.advanceTo(at(DAY, "05:00"));
    const flows = model.energyFlows({ start: DAY, end: `${DAY} 05:00:00`, grouping: 4 });
    expect(flowSum(flows, 4) + flowSum(flows, 1)).toBe(0);
  });
});

describe("DC discharge slots (56)", () => {
  const exportSettings = (eco: boolean) =>
    new MapSettings([
      [24, eco],
      [56, true],
      [53, "17:00"],
      [54, "19:00"],
      [129, 20],
      [73, 3000],
    ]);

  it("timed export (eco off) discharges at the discharge limit and exports the excess", () => {
    const model = freshHouse(exportSettings(false), "16:00", 90);
    model.advanceTo(at(NEXT, "00:00"));
    const points = model.dataPoints(DAY);
    const slot = pointsBetween(points, at(DAY, "17:00"), at(DAY, "19:00"));
    expect(slot).toHaveLength(24);
    for (const point of slot) expect(batteryW(point)).toBe(3000);
    for (const point of [
      ...pointsBetween(points, at(DAY, "16:00"), at(DAY, "17:00")),
      ...pointsBetween(points, at(DAY, "19:00"), at(NEXT)),
    ]) {
      expect(batteryW(point)).toBeLessThanOrEqual(0);
    }
    const halfHours = model.energyFlows({ start: `${DAY} 17:00:00`, end: `${DAY} 19:00:00`, grouping: 0 });
    expect(halfHours).toHaveLength(4);
    for (const record of halfHours) {
      expect(flowOf(record, 6)).toBeGreaterThan(0);
      expect(flowOf(record, 5) + flowOf(record, 6)).toBeCloseTo(1.5, 1);
    }
  });

  it("timed discharge (eco on) covers only the home in the slot and holds outside it", () => {
    const model = freshHouse(exportSettings(true), "16:00", 90);
    model.advanceTo(at(NEXT, "00:00"));
    const slot = model.energyFlows({ start: `${DAY} 17:00:00`, end: `${DAY} 19:00:00`, grouping: 4 });
    expect(flowSum(slot, 5)).toBeGreaterThan(0);
    expect(flowSum(slot, 6)).toBe(0);
    const outside = model.energyFlows({ start: `${DAY} 19:00:00`, end: NEXT, grouping: 4 });
    expect(flowSum(outside, 5) + flowSum(outside, 6)).toBe(0);
  });

  it("stops at the slot's lower SOC", () => {
    const settings = exportSettings(false);
    settings.set(129, 70);
    const model = freshHouse(settings, "16:00", 90);
    model.advanceTo(at(NEXT, "00:00"));
    expect(model.socPercent()).toBeGreaterThanOrEqual(70 - 1e-9);
    expect(model.socPercent()).toBeLessThan(70.5);
  });
});

describe("inverter output limit (47)", () => {
  it("caps the AC output, export included", () => {
    const settings = new MapSettings([
      [24, false],
      [56, true],
      [53, "17:00"],
      [54, "19:00"],
      [47, 20],
    ]);
    const model = freshHouse(settings, "16:00", 90);
    model.advanceTo(at(DAY, "18:00"));
    const slot = pointsBetween(model.dataPoints(DAY), at(DAY, "17:00"), at(DAY, "18:00"));
    for (const point of slot) expect(batteryW(point)).toBeLessThanOrEqual(1000);
  });
});
