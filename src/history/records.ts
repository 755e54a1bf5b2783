import { type HistoryRecord, jsonObject, timedRows } from "../store/index.js";
import type { BatteryModule } from "../vocabulary/index.js";

/** Readings in the daemon's words as history rows, whichever path read them. */

/**
 * A reading that stands for one moment (an inverter's or an EMS's values, in the daemon's words):
 * one row at the time the device measured it, when the path says.
 */
export function momentRecords(
  kind: "inverter.live" | "ems",
  device: string,
  measuredAt: number | undefined,
  values: Readonly<Record<string, string | number | boolean | null>>,
): HistoryRecord[] {
  if (measuredAt === undefined) return [];
  return timedRows([values], (item) => ({ kind, device, at: measuredAt, key: "", data: jsonObject(item) }));
}

/** Battery modules as the device lists show them (capacity, cycles): one row per module per read. */
export function batteryRecords(serial: string, modules: readonly BatteryModule[], at: number): HistoryRecord[] {
  return modules.map((module) => ({
    kind: "battery.module",
    device: serial,
    at,
    key: module.serial,
    data: jsonObject(module),
  }));
}
