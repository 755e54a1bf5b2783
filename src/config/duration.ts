import { z } from "zod";

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** "30s", "5m", "1h", "250ms" (or a bare number of seconds) as milliseconds. */
export const duration = z.union([z.string(), z.number()]).transform((value, ctx) => {
  if (typeof value === "number") return value * 1000;
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)$/.exec(value.trim());
  if (!match) {
    ctx.addIssue({
      code: "custom",
      message: `"${value}" is not a duration: use a number with ms, s, m or h, e.g. 30s or 5m`,
    });
    return z.NEVER;
  }
  return Number(match[1]) * (UNITS[match[2] as string] ?? 1000);
});
