import { booleanValue, numericValue } from "../../../cloud/index.js";

export function isPlainObjectValue(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** true/false/1/0 as a boolean, else undefined (an absent field). */
export const flag = (value: unknown): boolean | undefined => booleanValue(value);

/** A number or numeric text as a number, else undefined (an absent field). */
export const number = (value: unknown): number | undefined => numericValue(value);

/** The setting as a boolean, as the inverter reads it. */
export const isOn = (value: unknown): boolean => booleanValue(value) === true;
