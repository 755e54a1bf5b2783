import type { Preview } from "../planners/preview.js";

/**
 * The expected SoC at an instant: the battery under the planned windows and the house's forecast
 * use and solar (Preview.expected), linear between its half-hour points, flat outside them.
 */
export function socAt(preview: Preview, at: number): number {
  const points = preview.expected.points;
  const first = points[0];
  if (!first || at <= first.at) return first?.soc ?? 0;
  for (let index = 1; index < points.length; index++) {
    const a = points[index - 1] as { at: number; soc: number };
    const b = points[index] as { at: number; soc: number };
    if (at <= b.at) return b.at === a.at ? b.soc : a.soc + ((b.soc - a.soc) * (at - a.at)) / (b.at - a.at);
  }
  return (points[points.length - 1] as { soc: number }).soc;
}

/** Which rules have a planned window over a half-hour slot. */
export function rulesIn(preview: Preview, start: number, end: number): string[] {
  return preview.rules
    .filter((rule) =>
      rule.windows.some((window) => window.start < end && (window.end > start || window.start >= start)),
    )
    .map((rule) => rule.name);
}

/** Price range over the slots, including zero so bars start from a baseline. */
export function priceRange(preview: Preview): { min: number; max: number } {
  const prices = preview.slots.flatMap((slot) =>
    [slot.import, slot.export].filter((price): price is number => price !== undefined),
  );
  const min = Math.min(0, ...prices);
  const max = Math.max(min + 0.01, ...prices);
  return { min, max };
}
