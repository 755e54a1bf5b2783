import type { HistoryRecord, JsonObject, JsonValue } from "./history-types.js";

/**
 * History rows as every path and the history make them: values as plain JSON, and only rows with
 * a readable time (one without has no place in the history).
 */

/** Items as rows, those whose time could not be read left out. */
export function timedRows<T>(items: readonly T[], toRecord: (item: T) => HistoryRecord): HistoryRecord[] {
  const out: HistoryRecord[] = [];
  for (const item of items) {
    const record = toRecord(item);
    if (Number.isFinite(record.at)) out.push(record);
  }
  return out;
}

/** Parsed answers as plain JSON: undefined fields left out, as JSON.stringify would. */
export function jsonObject(value: object): JsonObject {
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    const json = jsonValue(item);
    if (json !== undefined) out[key] = json;
  }
  return out;
}

function jsonValue(value: unknown): JsonValue | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map((item) => jsonValue(item) ?? null);
  if (typeof value === "object") return jsonObject(value);
  return undefined;
}
