import { type Json, pythonStr } from "./python.js";

/**
 * The few Jinja templates a discovery config of ours uses, rendered the way Home Assistant does
 * (homeassistant/helpers/template/__init__.py Template.async_render_with_possible_json_value:
 * `value` is the payload, `value_json` its JSON when it parses, the output is str()'d and
 * stripped; a missing name is a LoggingUndefined that logs "Template variable warning" when
 * printed and raises (logged as "Template variable error") when looked into further).
 *
 * Supported: `{{ value }}`, `{{ value_json.a.b }}`, `{{ value_json['a'] }}`, a dict literal of
 * such paths, followed by the filters `default(<literal>[, <boolean>])` (or `d`) and `tojson`;
 * and `{{ <literal> if <path> is [not] defined|none [and ...] else <literal> }}`, which tests a
 * path without printing it (no warning for an undefined one, as jinja2's tests do not render).
 * Anything else is reported as unsupported rather than passed, so that a new kind of template
 * cannot slip past the checks.
 */

interface Segment {
  readonly name: string;
  /** `.name` (attribute first, then item) rather than `['name']` (item first). */
  readonly dot: boolean;
}

interface PathExpr {
  readonly kind: "path";
  readonly root: "value" | "value_json";
  readonly segments: readonly Segment[];
  readonly text: string;
}

interface DictExpr {
  readonly kind: "dict";
  readonly entries: readonly (readonly [string, PathExpr])[];
}

type Filter =
  | { readonly name: "tojson" }
  /** jinja2 do_default: an Undefined (or, with boolean, any falsy value) becomes the default, silently. */
  | { readonly name: "default"; readonly value: Json; readonly boolean: boolean };

interface PathTest {
  readonly path: PathExpr;
  readonly test: "defined" | "none";
  readonly negated: boolean;
}

/** `<then> if <test> and <test> ... else <otherwise>`. */
interface ConditionalExpr {
  readonly kind: "conditional";
  readonly whenTrue: Json;
  readonly tests: readonly PathTest[];
  readonly whenFalse: Json;
}

export interface ParsedTemplate {
  readonly expr: PathExpr | DictExpr | ConditionalExpr;
  readonly filters: readonly Filter[];
}

export interface Rendered {
  /** What the entity receives (after strip()). */
  readonly text: string;
  /** Names that were undefined when printed: each one is a "Template variable warning". */
  readonly undefinedNames: readonly string[];
  /** Errors that abort the render (Home Assistant logs them as errors). */
  readonly errors: readonly string[];
  /** `value_json.items` and the like: Jinja finds the dict's method before the key. */
  readonly dictMethods: readonly string[];
  /** Paths that were undefined before any filter ran (a default() hides them from Home Assistant's log). */
  readonly missingPaths: readonly string[];
}

/** Attributes of a Python dict: `value_json.<one of these>` is the method, not the key. */
const DICT_ATTRIBUTES = new Set([
  "clear",
  "copy",
  "fromkeys",
  "get",
  "items",
  "keys",
  "pop",
  "popitem",
  "setdefault",
  "update",
  "values",
]);

const PATH = String.raw`(?:value_json|value)(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*|\s*\[\s*(?:'[^']*'|"[^"]*")\s*\])*`;
const PATH_ONLY = new RegExp(`^${PATH}$`);
const DICT_ENTRY = new RegExp(String.raw`^\s*(?:'([^']*)'|"([^"]*)")\s*:\s*(${PATH})\s*$`);

function parsePath(text: string): PathExpr | undefined {
  const trimmed = text.trim();
  if (!PATH_ONLY.test(trimmed)) return undefined;
  const root = trimmed.startsWith("value_json") ? "value_json" : "value";
  const segments: Segment[] = [];
  const segment = /\.\s*([A-Za-z_][A-Za-z0-9_]*)|\[\s*(?:'([^']*)'|"([^"]*)")\s*\]/g;
  for (const match of trimmed.slice(root.length).matchAll(segment)) {
    if (match[1] !== undefined) segments.push({ name: match[1], dot: true });
    else segments.push({ name: match[2] ?? match[3] ?? "", dot: false });
  }
  return { kind: "path", root, segments, text: trimmed };
}

function parseDict(text: string): DictExpr | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") || !trimmed.endsWith("}")) return undefined;
  const body = trimmed.slice(1, -1).trim();
  if (body === "") return { kind: "dict", entries: [] };
  const entries: (readonly [string, PathExpr])[] = [];
  for (const part of body.split(",")) {
    const match = DICT_ENTRY.exec(part);
    const path = match?.[3] === undefined ? undefined : parsePath(match[3]);
    if (!match || !path) return undefined;
    entries.push([match[1] ?? match[2] ?? "", path]);
  }
  return { kind: "dict", entries };
}

function parseConditional(text: string): ConditionalExpr | undefined {
  const match = /^\s*('[^']*'|"[^"]*")\s+if\s+(.+?)\s+else\s+('[^']*'|"[^"]*")\s*$/s.exec(text);
  if (!match) return undefined;
  const then = parseLiteral(match[1] ?? "");
  const otherwise = parseLiteral(match[3] ?? "");
  const tests: PathTest[] = [];
  for (const part of (match[2] ?? "").split(/\s+and\s+/)) {
    const test = /^(.+?)\s+is\s+(not\s+)?(defined|none)$/.exec(part.trim());
    const path = test?.[1] === undefined ? undefined : parsePath(test[1]);
    if (!test || !path) return undefined;
    tests.push({ path, test: test[3] === "defined" ? "defined" : "none", negated: test[2] !== undefined });
  }
  if (!then || !otherwise) return undefined;
  return { kind: "conditional", whenTrue: then.value, tests, whenFalse: otherwise.value };
}

/** Splits on `|` outside quotes and brackets. */
function splitFilters(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "(" || c === "[" || c === "{") depth += 1;
    else if (c === ")" || c === "]" || c === "}") depth -= 1;
    else if (c === "|" && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((part) => part.trim());
}

function parseLiteral(text: string): { readonly value: Json } | undefined {
  const trimmed = text.trim();
  if (trimmed === "none" || trimmed === "None") return { value: null };
  if (trimmed === "true" || trimmed === "True") return { value: true };
  if (trimmed === "false" || trimmed === "False") return { value: false };
  if (/^-?\d+(?:\.\d+)?$/.test(trimmed)) return { value: Number(trimmed) };
  const quoted = /^'([^']*)'$|^"([^"]*)"$/.exec(trimmed);
  if (quoted) return { value: quoted[1] ?? quoted[2] ?? "" };
  return undefined;
}

function parseFilter(text: string): Filter | undefined {
  if (text === "tojson") return { name: "tojson" };
  const call = /^(?:default|d)\s*\((.*)\)$/s.exec(text);
  if (!call) return undefined;
  const args = (call[1] ?? "").split(",").map((arg) => arg.trim());
  const value = args[0] === undefined || args[0] === "" ? { value: "" } : parseLiteral(args[0]);
  const boolean = args[1] === undefined ? { value: false } : parseLiteral(args[1]);
  if (!value || !boolean || typeof boolean.value !== "boolean" || args.length > 2) return undefined;
  return { name: "default", value: value.value, boolean: boolean.value };
}

/** The template's expression, or the reason this checker cannot render it. */
export function parseTemplate(template: string): ParsedTemplate | { readonly unsupported: string } {
  const outer = /^\s*\{\{(.*)\}\}\s*$/s.exec(template);
  if (!outer?.[1] || outer[1].includes("{{") || outer[1].includes("}}")) {
    return { unsupported: "not a single {{ expression }}" };
  }
  const [head = "", ...filterTexts] = splitFilters(outer[1]);
  const filters: Filter[] = [];
  for (const text of filterTexts) {
    const filter = parseFilter(text);
    if (!filter) return { unsupported: `the filter "${text}"` };
    filters.push(filter);
  }
  const expr = parsePath(head) ?? parseDict(head) ?? parseConditional(head);
  if (!expr) return { unsupported: `the expression "${head}"` };
  if (expr.kind === "conditional" && filters.length > 0) return { unsupported: "a filter on a conditional" };
  if (expr.kind === "dict" && filters.some((f) => f.name !== "tojson")) {
    return { unsupported: "a filter other than tojson on a dict" };
  }
  return { expr, filters };
}

type Value =
  | { readonly kind: "value"; readonly value: Json }
  | { readonly kind: "method"; readonly name: string }
  | { readonly kind: "undefined"; readonly message: string }
  | { readonly kind: "error"; readonly message: string };

function typeName(value: Json): string {
  if (value === null) return "'None'";
  if (Array.isArray(value)) return "'list object'";
  if (typeof value === "object") return "'dict object'";
  if (typeof value === "string") return "'str object'";
  if (typeof value === "boolean") return "'bool object'";
  return Number.isInteger(value) ? "'int object'" : "'float object'";
}

function evaluate(path: PathExpr, payload: string, json: { readonly value: Json } | undefined): Value {
  let current: Value;
  if (path.root === "value") current = { kind: "value", value: payload };
  else if (json) current = { kind: "value", value: json.value };
  else current = { kind: "undefined", message: "'value_json' is undefined" };
  for (const segment of path.segments) {
    // Looking into an Undefined raises UndefinedError: an error, not a warning.
    if (current.kind === "undefined") return { kind: "error", message: current.message };
    if (current.kind === "method") return { kind: "error", message: `a method has no attribute '${segment.name}'` };
    const value: Json = current.value;
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      const object = value as { readonly [key: string]: Json };
      if (segment.dot && DICT_ATTRIBUTES.has(segment.name)) {
        current = { kind: "method", name: segment.name };
      } else if (Object.hasOwn(object, segment.name)) {
        current = { kind: "value", value: object[segment.name] ?? null };
      } else {
        current = { kind: "undefined", message: `'dict object' has no attribute '${segment.name}'` };
      }
    } else {
      current = { kind: "undefined", message: `${typeName(value)} has no attribute '${segment.name}'` };
    }
  }
  return current;
}

function parseJson(payload: string): { readonly value: Json } | undefined {
  try {
    return { value: JSON.parse(payload) as Json };
  } catch {
    return undefined;
  }
}

/** Python truthiness of a JSON value (for default(x, true)). */
function truthy(value: Json): boolean {
  if (value === null || value === false || value === 0 || value === "") return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object") return Object.keys(value).length > 0;
  return true;
}

/** Renders a parsed template against a payload, as Home Assistant would. */
export function renderTemplate(template: ParsedTemplate, payload: string): Rendered {
  const json = parseJson(payload);
  const undefinedNames: string[] = [];
  const errors: string[] = [];
  const dictMethods: string[] = [];
  const missingPaths: string[] = [];
  const tojson = template.filters.some((f) => f.name === "tojson");
  /** The path's value after the default filters; undefined stays undefined. */
  const resolve = (path: PathExpr): Value => {
    let value = evaluate(path, payload, json);
    if (value.kind === "undefined" || value.kind === "error") missingPaths.push(path.text);
    for (const filter of template.filters) {
      if (filter.name !== "default") continue;
      if (value.kind === "undefined" || (filter.boolean && value.kind === "value" && !truthy(value.value))) {
        value = { kind: "value", value: filter.value };
      }
    }
    return value;
  };
  const print = (path: PathExpr): Json => {
    const value = resolve(path);
    if (value.kind === "error") {
      errors.push(`${value.message} (in ${path.text})`);
      return "";
    }
    if (value.kind === "method") {
      dictMethods.push(path.text);
      return `<built-in method ${value.name} of dict object>`;
    }
    if (value.kind === "undefined") {
      // tojson hands the Undefined to the JSON encoder, which raises; str() logs the warning.
      if (tojson) errors.push(`${value.message} (in ${path.text}, passed to tojson)`);
      else undefinedNames.push(value.message);
      return "";
    }
    return value.value;
  };
  let text: string;
  if (template.expr.kind === "conditional") {
    const outcome = conditionHolds(template.expr, payload, json);
    if (typeof outcome === "string") {
      errors.push(outcome);
      text = "";
    } else text = pythonStr(outcome ? template.expr.whenTrue : template.expr.whenFalse);
  } else if (template.expr.kind === "path") {
    const value = print(template.expr);
    text = tojson ? JSON.stringify(value) : pythonStr(value);
  } else {
    const object: Record<string, Json> = {};
    for (const [name, path] of template.expr.entries) object[name] = print(path);
    text = tojson ? JSON.stringify(object) : pythonStr(object);
  }
  return { text: text.trim(), undefinedNames, errors, dictMethods, missingPaths };
}

/** Whether every test holds (`and` stops at the first that fails), or the error that aborts the render. */
function conditionHolds(
  expr: ConditionalExpr,
  payload: string,
  json: { readonly value: Json } | undefined,
): boolean | string {
  for (const { path, test, negated } of expr.tests) {
    const value = evaluate(path, payload, json);
    if (value.kind === "error") return `${value.message} (in ${path.text})`;
    const result = test === "defined" ? value.kind !== "undefined" : value.kind === "value" && value.value === null;
    if (result === negated) return false;
  }
  return true;
}

/** The state keys a template reads: the last name of each path (`value_json.a.b` → "b"). */
export function keysRead(template: ParsedTemplate): string[] {
  const { expr } = template;
  const paths =
    expr.kind === "path"
      ? [expr]
      : expr.kind === "dict"
        ? expr.entries.map(([, path]) => path)
        : expr.tests.map((test) => test.path);
  return paths.flatMap((path) => {
    const last = path.segments.at(-1);
    return last ? [last.name] : [];
  });
}
