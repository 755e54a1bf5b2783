import { z } from "zod";

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export interface DurationBounds {
  /** Milliseconds, inclusive. */
  readonly min: number;
  /** Milliseconds, inclusive. */
  readonly max: number;
  /** Milliseconds: the example the message offers (the key's default). */
  readonly example: number;
}

/** A duration as a person writes it: 1m rather than 60000ms. */
export function formatDuration(ms: number): string {
  for (const [unit, size] of [
    ["h", 3_600_000],
    ["m", 60_000],
    ["s", 1000],
  ] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

const bounded = new WeakMap<z.ZodType, DurationBounds>();

function durationSchema(bounds?: DurationBounds) {
  return z.union([z.string(), z.number()]).transform((value, ctx) => {
    let ms: number;
    if (typeof value === "number") ms = value * 1000;
    else {
      const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)$/.exec(value.trim());
      if (!match) {
        ctx.addIssue({
          code: "custom",
          message: `"${value}" is not a duration: use a number with ms, s, m or h, e.g. 30s or 5m`,
        });
        return z.NEVER;
      }
      ms = Number(match[1]) * (UNITS[match[2] as string] ?? 1000);
    }
    if (bounds && !(ms >= bounds.min && ms <= bounds.max)) {
      const shown = typeof value === "number" ? `${value}s` : value.trim();
      ctx.addIssue({
        code: "custom",
        message: `${shown} is out of range: use a duration from ${formatDuration(bounds.min)} to ${formatDuration(bounds.max)}, e.g. ${formatDuration(bounds.example)}`,
      });
      return z.NEVER;
    }
    return ms;
  });
}

/** "30s", "5m", "1h", "250ms" (or a bare number of seconds) as milliseconds. */
export const duration = durationSchema();

/** A duration that must lie within `min` and `max` (milliseconds); the reference prints the range. */
export function durationBetween(min: number, max: number, example: number) {
  const schema = durationSchema({ min, max, example });
  bounded.set(schema, { min, max, example });
  return schema;
}

/** Whether a schema is a duration, and its bounds if it has any. */
export function durationKind(schema: z.ZodType): { bounds: DurationBounds | undefined } | undefined {
  if (schema === duration) return { bounds: undefined };
  const bounds = bounded.get(schema);
  return bounds ? { bounds } : undefined;
}
