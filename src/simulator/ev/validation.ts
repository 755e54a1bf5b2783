import type { z } from "zod";
import type { ValidationErrorBody } from "./types.js";

export type Validated<T> = { ok: true; value: T } | { ok: false; body: ValidationErrorBody };

const INVALID_MESSAGE = "The given data was invalid.";
/** Nested unknown keys are dropped one level per pass; requests are at most three levels deep. */
const MAX_STRIP_PASSES = 4;

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function valueAt(root: unknown, path: Path): unknown {
  let value = root;
  for (const key of path) {
    if (Array.isArray(value) && typeof key === "number") value = value[key];
    else if (isRecord(value) && typeof key === "string") value = value[key];
    else return undefined;
  }
  return value;
}

/** Laravel's attribute name: the dotted path with underscores read as spaces. */
function attribute(path: Path): string {
  return path.map(String).join(".").replaceAll("_", " ");
}

const TYPE_WORDS: Record<string, string> = {
  number: "must be a number",
  int: "must be an integer",
  string: "must be a string",
  boolean: "must be true or false",
  array: "must be an array",
  object: "must be an array",
};

/** The message Laravel's validator gives for the rule behind a zod issue. */
function laravelMessage(issue: Issue, input: unknown): string {
  const name = attribute(issue.path);
  const last = String(issue.path.at(-1) ?? "");
  switch (issue.code) {
    case "invalid_type":
      if (valueAt(input, issue.path) === undefined) return `The ${name} field is required.`;
      return `The ${name} field ${TYPE_WORDS[issue.expected] ?? "is invalid"}.`;
    case "too_small":
      if (issue.origin === "string") return `The ${name} field must be at least ${issue.minimum} characters.`;
      if (issue.origin === "array") return `The ${name} field must have at least ${issue.minimum} items.`;
      return `The ${name} field must be at least ${issue.minimum}.`;
    case "too_big":
      if (issue.origin === "string") return `The ${name} field must not be greater than ${issue.maximum} characters.`;
      if (issue.origin === "array") return `The ${name} field must not have more than ${issue.maximum} items.`;
      return `The ${name} field must not be greater than ${issue.maximum}.`;
    case "invalid_format":
      if (last.endsWith("_time")) return `The ${name} field must match the format H:i.`;
      if (last.endsWith("date")) return `The ${name} field must be a valid date.`;
      return `The ${name} field format is invalid.`;
    case "invalid_value":
      return `The selected ${name} is invalid.`;
    default:
      return `The ${name} field is invalid.`;
  }
}

/** Removes the keys zod reported as unknown; true when it removed any. */
function stripUnknown(input: unknown, issues: readonly Issue[]): boolean {
  let stripped = false;
  for (const issue of issues) {
    if (issue.code !== "unrecognized_keys") continue;
    const target = valueAt(input, issue.path);
    if (!isRecord(target)) continue;
    for (const key of issue.keys) {
      delete target[key];
      stripped = true;
    }
  }
  return stripped;
}

/**
 * Validates a request body as the service's Laravel validator does: a missing or non-object
 * body is an empty one, unknown fields are ignored (the client's schemas refuse them, the
 * server does not), and each failed rule names its field in `errors`.
 */
export function validateRequest<S extends z.ZodType>(schema: S, body: unknown): Validated<z.output<S>> {
  const input: unknown = isRecord(body) ? structuredClone(body) : {};
  for (let pass = 0; pass < MAX_STRIP_PASSES; pass++) {
    const result = schema.safeParse(input);
    if (result.success) return { ok: true, value: result.data };
    if (stripUnknown(input, result.error.issues)) continue;
    const errors: Record<string, string[]> = {};
    for (const issue of result.error.issues) {
      const key = issue.path.map(String).join(".") || "body";
      errors[key] = [...(errors[key] ?? []), laravelMessage(issue, input)];
    }
    return { ok: false, body: { message: INVALID_MESSAGE, errors } };
  }
  return { ok: false, body: { message: INVALID_MESSAGE, errors: { body: ["The request body is invalid."] } } };
}
