/**
 * pino's JSON lines made readable: `21:34:10.123 INFO  message  key=value`. One line per event,
 * colour only when asked (a terminal). In-house rather than pino-pretty: a few lines of code, no
 * worker thread and no extra dependencies in a daemon that must stay small.
 */

export const LEVEL_NAMES: Readonly<Record<number, string>> = {
  10: "trace",
  20: "debug",
  30: "info",
  40: "warn",
  50: "error",
  60: "fatal",
};

/** pino's own keys, and those every line has: not repeated as fields. */
const HIDDEN = new Set(["level", "time", "msg", "name", "pid", "hostname", "v"]);

const COLOURS: Readonly<Record<string, string>> = {
  trace: "\x1b[90m",
  debug: "\x1b[36m",
  info: "\x1b[32m",
  warn: "\x1b[33m",
  error: "\x1b[31m",
  fatal: "\x1b[41m\x1b[97m",
};
const DIM = "\x1b[2m";
const RESET = "\x1b[0m";

export interface LogRecord {
  readonly level: string;
  readonly time: number;
  readonly message: string;
  /** `key=value ...`, empty when the event has no fields of its own. */
  readonly fields: string;
}

/** One pino JSON line as its parts; undefined for a line that is not pino's JSON. */
export function parseLogLine(line: string): LogRecord | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const entry = parsed as Record<string, unknown>;
  const level = typeof entry.level === "number" ? (LEVEL_NAMES[entry.level] ?? String(entry.level)) : "info";
  const time = typeof entry.time === "number" ? entry.time : Date.now();
  const message = typeof entry.msg === "string" ? entry.msg : "";
  const fields = Object.entries(entry)
    .filter(([key]) => !HIDDEN.has(key))
    .map(([key, value]) => `${key}=${fieldText(value)}`)
    .join(" ");
  return { level, time, message, fields };
}

/** The message and its fields, as `bridge/logging` and the pretty line show them. */
export function messageWithFields(record: LogRecord): string {
  return record.fields ? `${record.message}  ${record.fields}` : record.message;
}

/** `HH:MM:SS.mmm LEVEL message  fields`, local time. */
export function prettyLine(record: LogRecord, colour: boolean): string {
  const time = localTime(record.time);
  const label = record.level.toUpperCase().padEnd(5);
  const message = record.message.replace(/\n/g, "\n    ");
  if (!colour) return `${time} ${label} ${record.fields ? `${message}  ${record.fields}` : message}\n`;
  const paint = COLOURS[record.level] ?? "";
  const fields = record.fields ? `  ${DIM}${record.fields}${RESET}` : "";
  return `${DIM}${time}${RESET} ${paint}${label}${RESET} ${message}${fields}\n`;
}

function localTime(ms: number): string {
  const at = new Date(ms);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}.${String(at.getMilliseconds()).padStart(3, "0")}`;
}

/** A value short and on one line: errors by their message, lists joined, text quoted only when it must be. */
function fieldText(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === "string") return /[\s"=]/.test(value) || value === "" ? JSON.stringify(value) : value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item !== "object" || item === null))
    return value.map(String).join(",");
  if (typeof value === "object" && typeof (value as { message?: unknown }).message === "string")
    return fieldText((value as { message: string }).message);
  return JSON.stringify(value);
}
