import type { Database, Statement } from "better-sqlite3";
import type { JsonObject, JsonValue } from "./history-types.js";

/**
 * Stores history data as a shape (the keys, kept once in history_shape) and a JSON array of the
 * leaf values in the shape's order: a data point is about 170 bytes instead of 700 as plain
 * JSON, which makes an inverter-year about a quarter of the size (see bench/store.bench.ts).
 */
type Template =
  | { readonly type: "leaf" }
  | { readonly type: "object"; readonly keys: readonly string[]; readonly children: readonly Template[] }
  | { readonly type: "array"; readonly children: readonly Template[] };

const LEAF: Template = { type: "leaf" };
/** Data of one kind comes in a handful of shapes; the latest few are tried before building one. */
const RECENT_SHAPES = 8;

export class DataError extends Error {
  override readonly name = "DataError";
}

export interface Encoded {
  readonly shape: number;
  readonly data: string;
}

export class HistoryCodec {
  private readonly recent: { id: number; template: Template }[] = [];
  private readonly idBySkeleton = new Map<string, number>();
  private readonly templateById = new Map<number, Template>();
  private readonly find: Statement<[string], { id: number }>;
  private readonly insert: Statement<[string], { id: number }>;
  private readonly load: Statement<[number], { skeleton: string }>;

  constructor(db: Database) {
    this.find = db.prepare("SELECT id FROM history_shape WHERE skeleton = ?");
    this.insert = db.prepare("INSERT INTO history_shape (skeleton) VALUES (?) RETURNING id");
    this.load = db.prepare("SELECT skeleton FROM history_shape WHERE id = ?");
  }

  /** Must run inside the write transaction: a new shape is inserted on the way. */
  encode(data: JsonObject): Encoded {
    const values: JsonValue[] = [];
    for (const entry of this.recent) {
      if (matches(entry.template, data, values)) return { shape: entry.id, data: JSON.stringify(values) };
      values.length = 0;
    }
    const skeleton = skeletonOf(data, values);
    let id = this.idBySkeleton.get(skeleton);
    if (id === undefined) {
      id = (this.find.get(skeleton) ?? this.insert.get(skeleton))?.id;
      if (id === undefined) throw new Error("history_shape gave no id");
      this.idBySkeleton.set(skeleton, id);
    }
    this.remember(id, this.template(id, skeleton));
    return { shape: id, data: JSON.stringify(values) };
  }

  decode(shape: number, data: string): JsonObject {
    const template = this.template(shape);
    const values: unknown = JSON.parse(data);
    if (!Array.isArray(values)) throw new DataError(`history data is not an array of values: ${data.slice(0, 80)}`);
    const cursor = { next: 0 };
    const value = rebuild(template, values as JsonValue[], cursor);
    if (cursor.next !== values.length || value === null || typeof value !== "object" || Array.isArray(value)) {
      throw new DataError(`history data does not fit its shape ${shape}: ${data.slice(0, 80)}`);
    }
    return value;
  }

  /** After a rolled-back write: shapes inserted by it are gone again. */
  forget(): void {
    this.recent.length = 0;
    this.idBySkeleton.clear();
    this.templateById.clear();
  }

  private template(id: number, known?: string): Template {
    const cached = this.templateById.get(id);
    if (cached) return cached;
    const skeleton = known ?? this.load.get(id)?.skeleton;
    if (skeleton === undefined) throw new DataError(`history shape ${id} is missing`);
    const template = templateOf(JSON.parse(skeleton) as unknown);
    this.templateById.set(id, template);
    return template;
  }

  private remember(id: number, template: Template): void {
    this.recent.unshift({ id, template });
    if (this.recent.length > RECENT_SHAPES) this.recent.pop();
  }
}

function isLeaf(value: unknown): value is string | number | boolean | null {
  if (value === null) return true;
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      if (!Number.isFinite(value)) throw new DataError(`history data holds ${value}, which JSON cannot keep`);
      return true;
    case "object":
      return false;
    default:
      throw new DataError(`history data holds a ${typeof value}, which is not JSON`);
  }
}

/** Walks the data along a known shape, collecting the leaves; false as soon as it differs. */
function matches(template: Template, value: unknown, out: JsonValue[]): boolean {
  switch (template.type) {
    case "leaf":
      if (!isLeaf(value)) return false;
      out.push(value);
      return true;
    case "array": {
      if (!Array.isArray(value) || value.length !== template.children.length) return false;
      for (let i = 0; i < value.length; i++) {
        if (!matches(template.children[i] ?? LEAF, value[i] ?? null, out)) return false;
      }
      return true;
    }
    case "object": {
      if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
      const object = value as Record<string, unknown>;
      let i = 0;
      for (const key in object) {
        const child = object[key];
        if (child === undefined) continue;
        if (key !== template.keys[i]) return false;
        if (!matches(template.children[i] ?? LEAF, child, out)) return false;
        i++;
      }
      return i === template.keys.length;
    }
  }
}

/** The shape as JSON with every leaf written as 0; undefined members are left out, as JSON does. */
function skeletonOf(value: unknown, out: JsonValue[]): string {
  if (isLeaf(value)) {
    out.push(value);
    return "0";
  }
  if (Array.isArray(value)) {
    let text = "[";
    for (let i = 0; i < value.length; i++) text += (i > 0 ? "," : "") + skeletonOf(value[i] ?? null, out);
    return `${text}]`;
  }
  const object = value as Record<string, unknown>;
  let text = "{";
  let first = true;
  for (const key in object) {
    const child = object[key];
    if (child === undefined) continue;
    text += `${first ? "" : ","}${JSON.stringify(key)}:${skeletonOf(child, out)}`;
    first = false;
  }
  return `${text}}`;
}

function templateOf(skeleton: unknown): Template {
  if (Array.isArray(skeleton)) return { type: "array", children: skeleton.map(templateOf) };
  if (skeleton !== null && typeof skeleton === "object") {
    const entries = Object.entries(skeleton);
    return {
      type: "object",
      keys: entries.map(([key]) => key),
      children: entries.map(([, child]) => templateOf(child)),
    };
  }
  return LEAF;
}

function rebuild(template: Template, values: readonly JsonValue[], cursor: { next: number }): JsonValue {
  switch (template.type) {
    case "leaf": {
      if (cursor.next >= values.length) throw new DataError("history data has fewer values than its shape");
      return values[cursor.next++] ?? null;
    }
    case "array":
      return template.children.map((child) => rebuild(child, values, cursor));
    case "object": {
      const object: JsonObject = {};
      template.keys.forEach((key, i) => {
        object[key] = rebuild(template.children[i] ?? LEAF, values, cursor);
      });
      return object;
    }
  }
}
