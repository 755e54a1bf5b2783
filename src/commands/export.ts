import { once } from "node:events";
import { createWriteStream, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  type Cell,
  flattenRecord,
  HISTORY_KINDS,
  type HistoryKind,
  type HistoryQuery,
  historyColumns,
  PRIVATE_FILE,
  type StoreHistory,
} from "../store/index.js";
import { openConfiguredStore } from "./store-access.js";

export interface ExportOptions {
  readonly kind?: string;
  readonly device?: string;
  readonly from?: string;
  readonly to?: string;
  readonly format?: string;
  readonly out?: string;
  readonly config?: string;
}

const FORMATS = ["csv", "json"] as const;
type Format = (typeof FORMATS)[number];
const DAY_MS = 86_400_000;
/** Rows per write to the output. */
const CHUNK = 1_000;

/**
 * `energy2mqtt export`: one kind of stored history as CSV (a header row naming each column with
 * its unit) or JSON (one array of objects keyed by the same names; null where a row has no
 * value). 0 ok, 1 the store cannot be read, 2 bad usage or configuration.
 */
export async function runExportCommand(
  options: ExportOptions,
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  const query = parseQuery(options);
  if (typeof query === "string") {
    err.write(`${query}\n`);
    return 2;
  }
  const store = openConfiguredStore(options.config, err);
  if (typeof store === "number") return store;
  try {
    const counted = { count: 0 };
    const chunks = exportChunks(store.history, query.query, query.format, counted);
    if (options.out) {
      const problem = await writeFileAtomically(options.out, chunks);
      if (problem) {
        err.write(`${problem}\n`);
        return 1;
      }
      err.write(`exported ${counted.count} ${query.query.kind} record(s) to ${options.out}\n`);
      return 0;
    }
    for await (const chunk of chunks) if (!out.write(chunk)) await once(out, "drain");
    if (counted.count === 0) err.write(`the store holds no ${query.query.kind} records${describeRange(query.query)}\n`);
    return 0;
  } finally {
    store.close();
  }
}

interface ParsedQuery {
  readonly query: HistoryQuery;
  readonly format: Format;
}

function parseQuery(options: ExportOptions): ParsedQuery | string {
  const { kind, format = "csv" } = options;
  if (kind === undefined) return `--kind is required: one of ${HISTORY_KINDS.join(", ")}`;
  if (!isKind(kind)) return `unknown --kind "${kind}": use one of ${HISTORY_KINDS.join(", ")}`;
  if (!isFormat(format)) return `unknown --format "${format}": use one of ${FORMATS.join(", ")}`;
  const from = options.from === undefined ? undefined : parseTime("--from", options.from, false);
  if (typeof from === "string") return from;
  const to = options.to === undefined ? undefined : parseTime("--to", options.to, true);
  if (typeof to === "string") return to;
  if (from !== undefined && to !== undefined && from >= to)
    return `--from ${options.from} is not before --to ${options.to}`;
  return {
    format,
    query: {
      kind,
      ...(options.device ? { device: options.device } : {}),
      ...(from !== undefined ? { from } : {}),
      ...(to !== undefined ? { to } : {}),
    },
  };
}

/** A day is a UTC day, and `--to DAY` includes it; a time with its zone is exact (`--to` excluded). */
function parseTime(flag: string, text: string, end: boolean): number | string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const ms = Date.parse(`${text}T00:00:00Z`);
    if (!Number.isNaN(ms) && new Date(ms).toISOString().startsWith(text)) return end ? ms + DAY_MS : ms;
  } else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) {
    const ms = Date.parse(text);
    if (!Number.isNaN(ms)) return ms;
  }
  return `${flag} "${text}" is not a date: use YYYY-MM-DD (a UTC day) or a time with its zone, e.g. 2025-06-01T10:00:00Z`;
}

/** The export's text, a chunk of rows at a time; `counted.count` holds the rows given so far. */
async function* exportChunks(
  history: StoreHistory,
  query: HistoryQuery,
  format: Format,
  counted: { count: number },
): AsyncGenerator<string> {
  const columns = collectColumns(history, query);
  let count = 0;
  let chunk = format === "csv" ? `${columns.map(csvField).join(",")}\n` : "[";
  for (const record of history.query(query)) {
    const cells = flattenRecord(record);
    const values = columns.map((column) => cells.get(column) ?? null);
    chunk +=
      format === "csv"
        ? `${values.map(csvField).join(",")}\n`
        : `${count === 0 ? "\n" : ",\n"}${JSON.stringify(Object.fromEntries(columns.map((column, i) => [column, values[i]])))}`;
    count++;
    counted.count = count;
    if (count % CHUNK === 0) {
      yield chunk;
      chunk = "";
    }
  }
  if (format === "json") chunk += count === 0 ? "]\n" : "\n]\n";
  yield chunk;
}

/**
 * Writes into a temporary file beside `path` and renames it over `path` once all is written, so
 * that a failure (a full disk) leaves an earlier export whole and no partial file behind.
 * Returns what went wrong and what to do, or undefined when written.
 */
async function writeFileAtomically(path: string, chunks: AsyncIterable<string>): Promise<string | undefined> {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    // History says when the house is empty: readable by its owner only.
    await pipeline(Readable.from(chunks), createWriteStream(temporary, { mode: PRIVATE_FILE, flags: "wx" }));
    renameSync(temporary, path);
    return undefined;
  } catch (error) {
    rmSync(temporary, { force: true });
    return writeProblem(path, error);
  }
}

function writeProblem(path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const kept = `${path} was not written (an earlier file there is left as it was)`;
  if (code === "ENOSPC" || code === "EDQUOT")
    return `not exported: the disk holding ${path} is full; ${kept}. Free some space there, or choose another --out on a disk with room`;
  if (code === "EACCES" || code === "EPERM" || code === "EROFS")
    return `not exported: ${dirname(path)} cannot be written (${code}); ${kept}. Choose another --out, or let this user write there`;
  if (code === "ENOENT" || code === "ENOTDIR")
    return `not exported: the folder ${dirname(path)} does not exist; create it, or choose another --out`;
  return `not exported: ${path} could not be written (${error instanceof Error ? error.message : String(error)}); ${kept}`;
}

/** Every column any record of the export has: the leading ones, then in the order first seen. */
function collectColumns(history: StoreHistory, query: HistoryQuery): string[] {
  const columns = new Set(historyColumns(query.kind));
  for (const record of history.query(query)) {
    for (const name of flattenRecord(record).keys()) columns.add(name);
  }
  return [...columns];
}

function csvField(value: Cell): string {
  if (value === null) return "";
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function describeRange(query: HistoryQuery): string {
  const parts: string[] = [];
  if (query.device) parts.push(`for ${query.device}`);
  if (query.from !== undefined) parts.push(`from ${new Date(query.from).toISOString()}`);
  if (query.to !== undefined) parts.push(`before ${new Date(query.to).toISOString()}`);
  return parts.length > 0 ? ` ${parts.join(" ")}` : "";
}

function isKind(kind: string): kind is HistoryKind {
  return (HISTORY_KINDS as readonly string[]).includes(kind);
}

function isFormat(format: string): format is Format {
  return (FORMATS as readonly string[]).includes(format);
}
