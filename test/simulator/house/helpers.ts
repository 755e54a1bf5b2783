import type { DataPointBody, EnergyFlowBody } from "../../../src/simulator/house/bodies.js";
import type { InverterSpec, SettingsView, SettingValue } from "../../../src/simulator/house/index.js";
import { utcMsOfLocal } from "../../../src/time/local-instant.js";

export const ZONE = "Europe/London";

export class MapSettings implements SettingsView {
  readonly values: Map<number, SettingValue>;
  constructor(entries: Iterable<readonly [number, SettingValue]> = []) {
    this.values = new Map(entries);
  }
  get(id: number): SettingValue | undefined {
    return this.values.get(id);
  }
  set(id: number, value: SettingValue): void {
    this.values.set(id, value);
  }
}

/** Local wall time in London as epoch ms. */
export function at(date: string, time = "00:00"): number {
  return utcMsOfLocal(date, time, ZONE);
}

export function house(overrides: Partial<InverterSpec> = {}, initialSocPercent = 50): InverterSpec {
  return {
    serial: "SA1234G567",
    model: "GIV-HY5.0",
    timezone: ZONE,
    latitude: 51.5,
    longitude: -0.12,
    commissionDate: at("2024-01-01"),
    pvArrays: [{ kwp: 4.2, tiltDeg: 35, azimuthDeg: 180 }],
    battery: {
      capacityWh: 9500,
      nominalVoltage: 51.2,
      maxChargeW: 3600,
      maxDischargeW: 3600,
      depthOfDischarge: 1,
      initialSocPercent,
    },
    inverterMaxW: 5000,
    annualLoadKwh: 3800,
    faultsPerMonth: 0,
    ...overrides,
  };
}

export type Point = DataPointBody;
export type FlowRecord = EnergyFlowBody;

export const num = (value: unknown): number => (typeof value === "number" ? value : Number(value ?? 0));

/** Points whose time falls in [from, to). */
export function pointsBetween(points: readonly Point[], from: number, to: number): Point[] {
  return points.filter((point) => {
    const ms = Date.parse(point.time);
    return ms >= from && ms < to;
  });
}

export function batteryW(point: Point): number {
  return num(point.power?.battery?.power);
}

export function gridW(point: Point): number {
  return num(point.power?.grid?.power);
}

export function socOf(point: Point): number {
  return num(point.power?.battery?.percent);
}

/** kWh of one flow type summed over records. */
export function flowSum(records: readonly FlowRecord[], type: number): number {
  let sum = 0;
  for (const record of records) {
    const data = record.data;
    if (!Array.isArray(data) && data && typeof data === "object") sum += num((data as Record<string, unknown>)[type]);
  }
  return sum;
}

export function flowOf(record: FlowRecord | undefined, type: number): number {
  return record ? flowSum([record], type) : 0;
}
