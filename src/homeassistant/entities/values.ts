import { booleanValue, numericValue } from "../../validation/index.js";

export { round } from "../../vocabulary/index.js";

/** A number, or null for anything else (Home Assistant shows null as unknown). */
export function num(value: unknown): number | null {
  return numericValue(value) ?? null;
}

export function onOff(value: unknown): "ON" | "OFF" | null {
  const flag = booleanValue(value);
  return flag === undefined ? null : flag ? "ON" : "OFF";
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

/** `05:30` or `05:30:00` as Home Assistant's time state `05:30:00`; null for anything else. */
export function timeState(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const match = TIME.exec(value.trim());
  return match ? `${match[1]}:${match[2]}:${match[3] ?? "00"}` : null;
}

/** `05:30` or `05:30:00` as the `HH:mm` that writes use; undefined for anything else. */
export function writeTime(value: string): string | undefined {
  const match = TIME.exec(value.trim());
  return match ? `${match[1]}:${match[2]}` : undefined;
}

/** `Battery Reserve % Limit` -> `battery_reserve_percent_limit`. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/%/g, " percent ")
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}
