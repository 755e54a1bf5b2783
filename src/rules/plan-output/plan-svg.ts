import { localClockText, localDateTimeText, SLOT_MS } from "../../time/index.js";
import type { Preview } from "../planners/preview.js";
import { priceRange, socAt } from "./plan-view.js";

const COLUMN = 10;
/** The narrowest left margin: the price axis's labels. */
const MIN_LEFT = 60;
/** About the width of one character at the chart's font size, for the rule names' margin. */
const CHAR_PX = 6.5;
const TOP = 48;
const CHART = 200;
const LANE = 18;
const COLOURS = ["#d9480f", "#5f3dc4", "#087f5b", "#c2255c", "#1864ab"];

const xml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const fixed = (value: number): string => String(Math.round(value * 10) / 10);

/** The plan as an SVG image: price bars, each rule's windows in its own lane, the battery SoC line. */
export function planSvg(preview: Preview, options: { timeZone: string; currency: string }): string {
  const { min, max } = priceRange(preview);
  // Wide enough for the longest rule name, so no lane label is cut at the left edge.
  const LEFT = Math.max(
    MIN_LEFT,
    Math.ceil(Math.max(0, ...preview.rules.map((rule) => rule.name.length)) * CHAR_PX) + 14,
  );
  const width = Math.max(LEFT + preview.slots.length * COLUMN + 60, LEFT + 560);
  const lanesTop = TOP + CHART + 30;
  const height = lanesTop + preview.rules.length * LANE + 30;
  const y = (price: number) => TOP + CHART - ((price - min) / (max - min)) * CHART;
  const xAt = (at: number) => LEFT + ((at - (preview.slots[0]?.start ?? preview.from)) / SLOT_MS) * COLUMN;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${LEFT}" y="18" font-size="13">${xml(`Rules plan from ${localDateTimeText(preview.from, options.timeZone)} (${options.timeZone}), ${options.currency}/kWh`)}</text>`,
    `<line x1="${LEFT}" y1="${fixed(y(0))}" x2="${width - 60}" y2="${fixed(y(0))}" stroke="#868e96"/>`,
    `<text x="${LEFT - 6}" y="${fixed(y(max))}" text-anchor="end">${max.toFixed(2)}</text>`,
    `<text x="${LEFT - 6}" y="${fixed(y(min))}" text-anchor="end">${min.toFixed(2)}</text>`,
    ...legend(LEFT, preview),
  ];
  preview.slots.forEach((slot, index) => {
    const x = LEFT + index * COLUMN;
    if (slot.import !== undefined) {
      const top = Math.min(y(slot.import), y(0));
      const fill = slot.estimated ? "#a5d8ff" : "#1c7ed6";
      parts.push(
        `<rect class="import" x="${x}" y="${fixed(top)}" width="${COLUMN - 2}" height="${fixed(Math.abs(y(slot.import) - y(0)))}" fill="${fill}"><title>${xml(`${localDateTimeText(slot.start, options.timeZone)} import ${slot.import}`)}</title></rect>`,
      );
    }
    if (slot.export !== undefined) {
      parts.push(
        `<rect class="export" x="${x}" y="${fixed(y(slot.export) - 1)}" width="${COLUMN}" height="2" fill="#f08c00"/>`,
      );
    }
    const clock = localClockText(slot.start, options.timeZone);
    if (clock.endsWith(":00") && Number(clock.slice(0, 2)) % 6 === 0) {
      parts.push(
        `<line x1="${x}" y1="${TOP}" x2="${x}" y2="${TOP + CHART}" stroke="#dee2e6"/>`,
        `<text x="${x}" y="${TOP + CHART + 14}" text-anchor="middle">${clock}</text>`,
      );
    }
  });
  // The battery as the plan expects it, half-hour by half-hour: it rises in a charge, falls with the house's use.
  const points = preview.expected.points.map(
    (point) => `${fixed(xAt(point.at))},${fixed(TOP + CHART - (socAt(preview, point.at) / 100) * CHART)}`,
  );
  parts.push(
    `<polyline class="soc" points="${points.join(" ")}" fill="none" stroke="#2f9e44" stroke-width="2"/>`,
    `<text x="${width - 56}" y="${TOP + 8}" fill="#2f9e44">SoC 100%</text>`,
    `<text x="${width - 56}" y="${TOP + CHART}" fill="#2f9e44">0%</text>`,
  );
  preview.rules.forEach((rule, lane) => {
    const top = lanesTop + lane * LANE;
    const colour = COLOURS[lane % COLOURS.length] ?? "#495057";
    parts.push(`<text x="${LEFT - 6}" y="${top + 12}" text-anchor="end">${xml(rule.name)}</text>`);
    for (const window of rule.windows) {
      const x = xAt(window.start);
      const w = Math.max(2, xAt(window.end) - x);
      parts.push(
        `<rect class="window" x="${fixed(x)}" y="${top}" width="${fixed(w)}" height="${LANE - 4}" fill="${colour}"><title>${xml(`${rule.name}: ${window.trigger}, ${localClockText(window.start, options.timeZone)}-${localClockText(window.end, options.timeZone)}`)}</title></rect>`,
      );
    }
  });
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}

/** What each mark means: import and export prices, estimated prices, the SoC line, the house model. */
function legend(left: number, preview: Preview): string[] {
  const y = 34;
  const days = preview.expected.days;
  const house =
    days > 0 ? `house's use learned from ${days === 1 ? "1 day" : `${days} days`}` : "house's own use not modelled";
  const items: [string, string][] = [
    ['<rect x="0" y="-8" width="10" height="8" fill="#1c7ed6"/>', "import price"],
    ['<rect x="0" y="-8" width="10" height="8" fill="#a5d8ff"/>', "estimated"],
    ['<rect x="0" y="-5" width="10" height="2" fill="#f08c00"/>', "export price"],
    ['<line x1="0" y1="-4" x2="12" y2="-4" stroke="#2f9e44" stroke-width="2"/>', `expected SoC (${house})`],
  ];
  let x = left;
  return items.map(([mark, text]) => {
    const part = `<g class="legend" transform="translate(${x},${y})">${mark}<text x="16" y="0">${xml(text)}</text></g>`;
    x += 24 + text.length * CHAR_PX;
    return part;
  });
}
