import { z } from "zod";

/** ISO 8601 (`2025-02-09T15:00:03Z`, offsets and fractions allowed) or local `YYYY-MM-DD hh:mm:ss`. */
const ISO_OR_LOCAL = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** A timestamp in either form the service uses; kept as sent, since local datetimes carry no zone. */
export const timestamp = z.string().regex(ISO_OR_LOCAL, "expected an ISO 8601 or local datetime");
export type Timestamp = z.infer<typeof timestamp>;

/** A value the service may send as null or leave out. */
export const opt = <T extends z.ZodType>(schema: T) => schema.nullish();

/** An array the service may send as null or leave out; read as empty. */
export const list = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullish()
    .transform((value) => value ?? []);

const isEmptyArray = (input: unknown): boolean => Array.isArray(input) && input.length === 0;

/**
 * `schema`, reading PHP's `[]` (how it encodes an empty map) as `replacement` first. A
 * preprocess, so a bad field inside is still reported by its own path; typed with the
 * schema's own input, so code that builds such bodies (the simulator) keeps its checks.
 */
export function emptyArrayAs<T extends z.ZodType>(replacement: unknown, schema: T): z.ZodType<z.output<T>, z.input<T>> {
  return z.preprocess((input) => (isEmptyArray(input) ? replacement : input), schema) as unknown as z.ZodType<
    z.output<T>,
    z.input<T>
  >;
}

/** `schema` (an object or record) that also takes `[]` as `{}`. */
export const emptyAsObject = <T extends z.ZodType>(schema: T) => emptyArrayAs({}, schema);

/**
 * An object the service may send as `[]`, as null, or leave out: `[]` reads as `{}` (its lists
 * then read as empty and its optional fields as absent), null and a missing value stay absent.
 * Unknown keys are dropped, never refused.
 */
export const obj = <S extends z.ZodRawShape>(shape: S) => emptyAsObject(z.object(shape)).nullish();

/** Firmware and hardware versions: an integer (904) on some devices, a string ("D0.449-A0.449") on others. */
export const version = z.union([z.number(), z.string()]);

/** One object or an array of them, read as an array (the service answers either for some endpoints). */
export const oneOrMany = <T extends z.ZodType>(item: T) =>
  z
    .union([z.array(item), item])
    .transform((value): z.output<T>[] => (Array.isArray(value) ? (value as z.output<T>[]) : [value as z.output<T>]));

/** A number the service sometimes sends as a numeric string. */
export const numeric = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/)
    .transform(Number),
]);

/**
 * Wrappers are built once per inner schema: zod compiles a schema on first use, and building
 * a fresh wrapper per request made that compilation the client's largest cost.
 */
function memoize<R>(build: (schema: z.ZodType) => R): <T extends z.ZodType>(schema: T) => R {
  const cache = new WeakMap<z.ZodType, R>();
  return (schema) => {
    let built = cache.get(schema);
    if (built === undefined) {
      built = build(schema);
      cache.set(schema, built);
    }
    return built;
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** What a body that is not a JSON object was, for the error: text that is not JSON, an array, nothing. */
function bodyKind(body: unknown): string {
  if (body === undefined) return "empty";
  if (typeof body === "string") {
    const start = body.replace(/\s+/g, " ").trim().slice(0, 60);
    return `not JSON (it starts ${JSON.stringify(start)})`;
  }
  return Array.isArray(body) ? "an array, not an object" : `${JSON.stringify(body)}, not an object`;
}

const dataWrapper = memoize((schema) =>
  z.preprocess(
    (body, ctx) => {
      if (!isRecord(body)) {
        // The field the caller wanted is `data`; say what was expected there (the schema's
        // description, e.g. "the preset list") and what came instead.
        const expected = schema.description ?? "the answer";
        ctx.addIssue({
          code: "custom",
          path: ["data"],
          message: `expected ${expected}, but the body is ${bodyKind(body)}`,
          input: body,
        });
      }
      return body;
    },
    z.object({ data: schema }).transform((body) => body.data),
  ),
);

/** `{ data: T }`, unwrapped. A body that is not a JSON object fails at `data`, saying what came. */
export const data = <T extends z.ZodType>(schema: T): z.ZodType<z.output<T>> =>
  dataWrapper(schema) as z.ZodType<z.output<T>>;

const dataOrTopLevelWrapper = memoize((schema) =>
  z.preprocess((body) => {
    // Only a body that is nothing but `data` is an envelope: a top-level answer may carry a
    // `data` of its own (an EV CallError's `data: {extra}`).
    if (typeof body === "object" && body !== null && !Array.isArray(body)) {
      const keys = Object.keys(body);
      const inner = (body as { data?: unknown }).data;
      if (
        keys.length === 1 &&
        keys[0] === "data" &&
        typeof inner === "object" &&
        inner !== null &&
        !Array.isArray(inner)
      ) {
        return inner;
      }
    }
    return body;
  }, schema),
);

/**
 * Responses that the reference says come either at the top level or inside `data`
 * (e.g. Modify Preset: 201 top-level, or 200 inside data).
 */
export const dataOrTopLevel = <T extends z.ZodType>(schema: T): z.ZodType<z.output<T>> =>
  dataOrTopLevelWrapper(schema) as z.ZodType<z.output<T>>;

export const paginationLinks = z.object({
  first: opt(z.string()),
  last: opt(z.string()),
  prev: opt(z.string()),
  next: opt(z.string()),
});

export const paginationMeta = z.object({
  current_page: numeric,
  from: opt(numeric),
  last_page: opt(numeric),
  path: opt(z.string()),
  per_page: opt(numeric),
  to: opt(numeric),
  total: opt(numeric),
});

const pageWrapper = memoize((item) =>
  z.object({
    // A list with nothing in it may come as null.
    data: list(item),
    links: emptyAsObject(paginationLinks).nullish(),
    meta: emptyAsObject(paginationMeta).nullish(),
  }),
);

/** The pagination envelope: `data` plus `links` and `meta`. */
export const page = <T extends z.ZodType>(item: T): z.ZodType<Page<z.output<T>>> =>
  pageWrapper(item) as z.ZodType<Page<z.output<T>>>;

export type Page<T> = {
  data: T[];
  links?: z.infer<typeof paginationLinks> | null;
  meta?: z.infer<typeof paginationMeta> | null;
};

/** `{ success, message }`, as several control endpoints answer. */
export const successMessage = z.object({
  success: z.boolean(),
  message: opt(z.string()),
});
