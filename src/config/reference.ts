import { z } from "zod";
import { durationKind, formatDuration } from "../time/index.js";
import { ENV_PREFIX } from "./load.js";
import { configSchema } from "./schema.js";

/** One documented key of the configuration. */
export interface ReferenceRow {
  readonly key: string;
  readonly type: string;
  readonly default: string;
  readonly allowed: string;
  /** The ENERGY2MQTT_* variable that overrides it, or undefined when none can (nested keys, lists). */
  readonly env: string | undefined;
  readonly description: string;
}

type JsonSchema = {
  type?: string;
  enum?: readonly unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
};

/** Every key of the schema, section by section, in the schema's own order. */
export function referenceRows(schema: z.ZodObject = configSchema): ReferenceRow[] {
  return Object.entries(schema.shape).flatMap(([name, value]) => rowsFor([name], value as z.ZodType));
}

function rowsFor(path: readonly string[], schema: z.ZodType): ReferenceRow[] {
  const { core, defaultValue, optional, description } = unwrap(schema);
  if (core instanceof z.ZodObject) {
    return Object.entries(core.shape).flatMap(([name, value]) => rowsFor([...path, name], value as z.ZodType));
  }
  const kind = durationKind(core);
  const isDuration = kind !== undefined;
  const json = isDuration ? {} : jsonOf(core);
  const type = isDuration ? "duration" : json.enum ? "enum" : (json.type ?? "value");
  const scalar = ["string", "number", "integer", "boolean", "enum", "duration"].includes(type);
  return [
    {
      key: path.join("."),
      type,
      default:
        defaultValue !== undefined
          ? isDuration && typeof defaultValue === "number"
            ? `\`${formatDuration(defaultValue)}\``
            : `\`${typeof defaultValue === "string" ? defaultValue : JSON.stringify(defaultValue)}\``
          : optional
            ? "(not set)"
            : "(required)",
      allowed: kind
        ? kind.bounds
          ? `${formatDuration(kind.bounds.min)} to ${formatDuration(kind.bounds.max)}, a number with ms, s, m or h`
          : "a number with ms, s, m or h, e.g. 30s, 5m, 1h"
        : allowed(json),
      env: scalar && path.length <= 2 ? `${ENV_PREFIX}${path.join("_").toUpperCase()}` : undefined,
      description: description ?? "",
    },
  ];
}

/** Peels default, optional and preprocessing layers off a key, keeping what they say. */
function unwrap(schema: z.ZodType): {
  core: z.ZodType;
  defaultValue: unknown;
  optional: boolean;
  description: string | undefined;
} {
  let core = schema;
  let defaultValue: unknown;
  let optional = false;
  let description = schema.description;
  for (;;) {
    description ??= core.description;
    if (core instanceof z.ZodDefault) {
      defaultValue ??= core.def.defaultValue;
      core = core.def.innerType as z.ZodType;
    } else if (core instanceof z.ZodOptional) {
      optional = true;
      core = core.def.innerType as z.ZodType;
    } else return { core, defaultValue, optional, description };
  }
}

/** The JSON Schema of a key's output; pipes contribute every stage (integer from one, bounds from another). */
function jsonOf(schema: z.ZodType): JsonSchema {
  if (schema instanceof z.ZodPipe) {
    const first = jsonOf(schema.def.in as z.ZodType);
    const second = jsonOf(schema.def.out as z.ZodType);
    const type = first.type === "integer" || second.type === "integer" ? "integer" : (second.type ?? first.type);
    return { ...first, ...second, ...(type ? { type } : {}) };
  }
  const json = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as JsonSchema;
  const { minimum, maximum } = json;
  // Zod states the safe-integer range for every int(); that is no bound worth printing.
  return {
    ...json,
    ...(minimum !== undefined && minimum <= Number.MIN_SAFE_INTEGER ? { minimum: undefined } : {}),
    ...(maximum !== undefined && maximum >= Number.MAX_SAFE_INTEGER ? { maximum: undefined } : {}),
  };
}

function allowed(json: JsonSchema): string {
  if (json.enum) return json.enum.map((value) => `\`${String(value)}\``).join(", ");
  const range = (low: number | undefined, high: number | undefined, unit: string): string | undefined => {
    if (low !== undefined && high !== undefined) return `${low} to ${high}${unit}`;
    if (low !== undefined) return `at least ${low}${unit}`;
    if (high !== undefined) return `at most ${high}${unit}`;
    return undefined;
  };
  if (json.type === "string") {
    if (json.minLength === 1 && json.maxLength === undefined) return "not empty";
    return range(json.minLength, json.maxLength, " characters") ?? "";
  }
  return range(json.minimum, json.maximum, "") ?? "";
}

/** The reference as a markdown table. */
export function configReference(schema: z.ZodObject = configSchema): string {
  const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
  const lines = [
    "| key | type | default | allowed | environment | description |",
    "|---|---|---|---|---|---|",
    ...referenceRows(schema).map(
      (row) =>
        `| \`${row.key}\` | ${row.type} | ${cell(row.default)} | ${cell(row.allowed)} | ${row.env ? `\`${row.env}\`` : "—"} | ${cell(row.description)} |`,
    ),
  ];
  return lines.join("\n");
}

export const REFERENCE_START = "<!-- config-reference:start -->";
export const REFERENCE_END = "<!-- config-reference:end -->";

/** The README with the generated reference between its markers; throws when the markers are missing. */
export function withConfigReference(readme: string, reference: string = configReference()): string {
  return withMarkedBlock(readme, REFERENCE_START, REFERENCE_END, reference);
}

/** `text` with what lies between the `start` and `end` markers replaced; throws when they are missing. */
export function withMarkedBlock(text: string, start: string, end: string, content: string): string {
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`README.md needs ${start} and ${end} markers`);
  return `${text.slice(0, from + start.length)}\n${content}\n${text.slice(to)}`;
}
