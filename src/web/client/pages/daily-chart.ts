import { ticks } from "../chart-ticks.js";
import { s } from "../dom.js";
import type { LocalTime } from "../local-time.js";
import { plural } from "../plural.js";
import type { DailyRow } from "./daily-rows.js";

const HEIGHT = 274;
const TOP = 26;
const BOTTOM = 44;
const LEFT = 52;
const RIGHT = 64;

/**
 * Energy per day as an SVG drawn to the box's width: a group a day on a day axis, grid import and
 * export as bars (kWh, left axis), the day's cost as a point on its own axis (right). Each group
 * carries its figures as data attributes, the same rows the table and the CSV show.
 */
export function dailyChart(
  rows: readonly DailyRow[],
  width: number,
  time: LocalTime,
  currency: string | null,
  number: Intl.NumberFormat,
  /** Whose days: "this inverter (X)", "this plant (…)" or "the house (…)". */
  whose = "this inverter",
): SVGElement {
  const plotW = Math.max(40, width - LEFT - RIGHT);
  const plotH = HEIGHT - TOP - BOTTOM;
  const kwhMax = Math.max(1, ...rows.flatMap((row) => [row.importKwh ?? 0, row.exportKwh ?? 0]));
  const kwhTicks = ticks(0, kwhMax, 5);
  const kwhTop = kwhTicks[kwhTicks.length - 1] ?? kwhMax;
  const costs = rows.flatMap((row) => (row.cost === null ? [] : [row.cost]));
  const costTicks = ticks(Math.min(0, ...costs), Math.max(0.01, ...costs), 5);
  const costLow = costTicks[0] ?? 0;
  const costHigh = costTicks[costTicks.length - 1] ?? 1;
  const y = (kwh: number) => TOP + plotH - (kwh / kwhTop) * plotH;
  const yCost = (money: number) => TOP + plotH - ((money - costLow) / (costHigh - costLow || 1)) * plotH;
  const slot = plotW / Math.max(1, rows.length);
  const bar = Math.max(1, Math.min(28, slot * 0.36));
  const labelEvery = Math.max(1, Math.ceil(76 / slot));
  const svg = s("svg", {
    class: "daily",
    width,
    height: HEIGHT,
    viewBox: `0 0 ${width} ${HEIGHT}`,
    role: "img",
    "aria-label": `Grid import and export in kWh and cost${currency ? ` in ${currency}` : ""} per day for ${whose}, ${plural(rows.length, "day")}; the same figures are in the table below`,
  });
  for (const tick of kwhTicks) {
    svg.append(
      s("line", { class: "grid", x1: LEFT, x2: LEFT + plotW, y1: y(tick), y2: y(tick) }),
      s("text", { class: "axis", x: LEFT - 6, y: y(tick) + 4, "text-anchor": "end" }, number.format(tick)),
    );
  }
  for (const tick of costTicks)
    svg.append(
      s(
        "text",
        { class: "axis", x: LEFT + plotW + 6, y: yCost(tick) + 4, "text-anchor": "start" },
        number.format(tick),
      ),
    );
  svg.append(
    s("text", { class: "axis-label", x: 4, y: 4, "dominant-baseline": "hanging" }, "kWh"),
    s(
      "text",
      { class: "axis-label", x: width - 4, y: 4, "text-anchor": "end", "dominant-baseline": "hanging" },
      currency ?? "cost",
    ),
  );
  rows.forEach((row, index) => {
    const x = LEFT + index * slot;
    const middle = x + slot / 2;
    const group = s("g", {
      class: "day",
      "data-day": row.day,
      "data-import": row.importKwh ?? "",
      "data-export": row.exportKwh ?? "",
      "data-cost": row.cost ?? "",
    });
    if (row.importKwh !== null)
      group.append(
        s("rect", {
          class: "import",
          x: middle - bar,
          y: y(row.importKwh),
          width: bar,
          height: y(0) - y(row.importKwh),
        }),
      );
    if (row.exportKwh !== null)
      group.append(
        s("rect", { class: "export", x: middle, y: y(row.exportKwh), width: bar, height: y(0) - y(row.exportKwh) }),
      );
    if (row.cost !== null)
      group.append(
        s("circle", { class: "cost", cx: middle, cy: yCost(row.cost), r: Math.max(2.5, Math.min(5, bar / 3)) }),
      );
    if (index % labelEvery === 0)
      group.append(
        s("line", { class: "grid", x1: middle, x2: middle, y1: TOP + plotH, y2: TOP + plotH + 4 }),
        s("text", { class: "axis", x: middle, y: TOP + plotH + 18, "text-anchor": "middle" }, time.shortDay(row.start)),
      );
    svg.append(group);
  });
  svg.append(s("line", { class: "baseline", x1: LEFT, x2: LEFT + plotW, y1: y(0), y2: y(0) }));
  return svg;
}
