import { FLOW_TYPES, measurandName, measurandUnit, unitOfPath } from "./history-quantities.js";
import type { HistoryKind, HistoryRecord, JsonValue } from "./history-types.js";

export type Cell = string | number | boolean | null;

/** What the record's key means, as a column name; kinds keyed by "" have no such column. */
const KEY_COLUMNS: Partial<Record<HistoryKind, string>> = {
  "ev.meter": "meter",
  "inverter.event": "event",
  "battery.module": "module",
};

/** The columns every row starts with: the record's time (ISO 8601, UTC), device and key. */
export function historyColumns(kind: HistoryKind): string[] {
  const key = KEY_COLUMNS[kind];
  return key ? ["time", "device", key] : ["time", "device"];
}

/**
 * One record as named cells: the leading columns, then each data value under its flattened
 * path and unit, e.g. `power.solar.power (W)`, `today.grid.import (kWh)`, `pv_to_home (kWh)`,
 * `Energy.Active.Import.Register (kWh)`. Array items are numbered from 1.
 */
export function flattenRecord(record: HistoryRecord): Map<string, Cell> {
  const cells = new Map<string, Cell>();
  const leading = historyColumns(record.kind);
  cells.set("time", new Date(record.at).toISOString());
  cells.set("device", record.device);
  const keyColumn = leading[2];
  if (keyColumn) cells.set(keyColumn, record.key);
  const put = (name: string, value: Cell) => cells.set(leading.includes(name) ? `data.${name}` : name, value);
  for (const [key, value] of Object.entries(record.data)) {
    if (record.kind.startsWith("flow.")) flowCell(key, value, put);
    else if (record.kind === "ev.meter") meterCell(key, value, put);
    else walk(record.kind, [key], value, put);
  }
  return cells;
}

type Put = (name: string, value: Cell) => void;

function withUnit(name: string, unit: string | undefined): string {
  return unit ? `${name} (${unit})` : name;
}

function walk(kind: HistoryKind, path: string[], value: JsonValue, put: Put): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      walk(kind, [...path, String(i + 1)], item, put);
    });
  } else if (value !== null && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) walk(kind, [...path, key], child, put);
  } else {
    put(withUnit(path.join("."), unitOfPath(kind, path)), value);
  }
}

function flowCell(key: string, value: JsonValue, put: Put): void {
  const name = FLOW_TYPES[key];
  if (name && (typeof value === "number" || value === null)) put(withUnit(name, "kWh"), value);
  else walk("flow.day", [key], value, put);
}

/** A measurand's value is a number, or {value, unit} with the reference's unit code. */
function meterCell(key: string, value: JsonValue, put: Put): void {
  const name = measurandName(key);
  if (name === undefined) {
    walk("ev.meter", [key], value, put);
  } else if (typeof value !== "object" || value === null) {
    put(withUnit(name, measurandUnit(name)), value);
  } else if (!Array.isArray(value) && "value" in value && typeof value.value !== "object") {
    const code = typeof value.unit === "number" ? value.unit : null;
    put(withUnit(name, measurandUnit(name, code)), value.value ?? null);
  } else {
    walk("ev.meter", [name], value, put);
  }
}
