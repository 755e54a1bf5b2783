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

/** A number the service sometimes sends as a numeric string. */
export const numeric = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/).transform(Number)]);

/** `{ data: T }`, unwrapped. */
export const data = <T extends z.ZodType>(schema: T) =>
  z.object({ data: schema }).transform((body): z.output<T> => (body as { data: z.output<T> }).data);

/**
 * Responses that the reference says come either at the top level or inside `data`
 * (e.g. Modify Preset: 201 top-level, or 200 inside data).
 */
export const dataOrTopLevel = <T extends z.ZodType>(schema: T) =>
  z.preprocess((body) => {
    if (typeof body === "object" && body !== null && "data" in body) {
      const inner = (body as { data: unknown }).data;
      if (typeof inner === "object" && inner !== null && !Array.isArray(inner)) return inner;
    }
    return body;
  }, schema);

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

/** The pagination envelope: `data` plus `links` and `meta`. */
export const page = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    links: opt(paginationLinks),
    meta: opt(paginationMeta),
  });

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
