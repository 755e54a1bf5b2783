import { clockMinutes } from "../../time/index.js";

export type SettingValue = boolean | number | string;

/** How the house reads the inverter's settings; the inverter-control model implements it. */
export interface SettingsView {
  get(id: number): SettingValue | undefined;
}

/** true/false, 1/0 and their string forms. */
export function readBoolean(view: SettingsView, id: number, fallback: boolean): boolean {
  const value = view.get(id);
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  if (typeof value === "string") {
    const text = value.trim().toLowerCase();
    if (text === "true" || text === "1") return true;
    if (text === "false" || text === "0") return false;
  }
  return fallback;
}

/** A number, or a numeric string. */
export function readNumber(view: SettingsView, id: number, fallback: number): number {
  const value = view.get(id);
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "") {
    const parsed = Number(value);
    if (Number.isFinite(parsed)) return parsed;
  }
  return fallback;
}

/** Whole minutes of day of an `HH:mm` or `HH:mm:ss` setting, or undefined. */
export function readClock(view: SettingsView, id: number): number | undefined {
  const value = view.get(id);
  if (typeof value !== "string") return undefined;
  const minutes = clockMinutes(value);
  return minutes === undefined ? undefined : Math.floor(minutes);
}
