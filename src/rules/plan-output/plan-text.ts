import { localClockText, localDateTimeText, SLOT_MS } from "../../time/index.js";
import type { PlannedOverlap } from "../file/control-overlaps.js";
import type { Preview } from "../planners/preview.js";
import { explainedTable } from "./plan-explain-text.js";
import { priceRange, rulesIn, socAt } from "./plan-view.js";

const BLOCKS = " ▁▂▃▄▅▆▇█";

export interface TextOptions {
  readonly timeZone: string;
  readonly currency: string;
  /** Lines printed above the plan: where the state came from, tariff notes. */
  readonly header: readonly string[];
  /** Who wins each control two rules share (sharedControlLines), and where planned windows meet on one. */
  readonly shared?: { readonly lines: readonly string[]; readonly overlaps: readonly PlannedOverlap[] };
}

/** The plan as text: the rules' windows and actions, a table of half-hours, and a block chart. */
export function planText(preview: Preview, options: TextOptions): string {
  const { timeZone } = options;
  const lines = [
    `Rules plan ${localDateTimeText(preview.from, timeZone)} to ${localDateTimeText(preview.to, timeZone)} (${timeZone}), prices in ${options.currency}/kWh`,
    ...options.header,
    "",
    "Rules",
  ];
  for (const rule of preview.rules) {
    const flags = [!rule.enabled ? "disabled" : "", rule.dryRun ? "dry run" : ""].filter(Boolean);
    lines.push(`  ${rule.name}${flags.length ? ` (${flags.join(", ")})` : ""}`);
    if (rule.windows.length === 0) lines.push("    no window in these hours");
    for (const window of rule.windows) {
      const when =
        window.end === window.start
          ? localDateTimeText(window.start, timeZone)
          : `${localDateTimeText(window.start, timeZone)}-${localClockText(window.end, timeZone)}`;
      const cost = window.cost !== undefined ? `  cost of the plan ${window.cost.toFixed(2)} ${options.currency}` : "";
      lines.push(`    ${when}  ${window.trigger}${cost}`);
      // In words first; then exactly what is sent, for checking against the device's presets.
      window.actions.forEach((action, index) => {
        lines.push(`      ${window.readable[index] ?? action}`);
        if (window.readable[index] !== undefined) lines.push(`        sends ${action}`);
      });
    }
    for (const note of rule.notes) lines.push(`    note: ${note}`);
  }
  if (options.shared && options.shared.lines.length > 0) lines.push("", ...sharedText(options.shared, timeZone));
  for (const rule of preview.rules.filter((one) => one.explained.length > 0))
    lines.push(
      "",
      `Optimiser half-hours of ${rule.name}`,
      ...explainedTable(rule.explained, options.currency).map((line) => `  ${line}`),
    );
  lines.push(
    "",
    "Half-hours",
    `  ${"time".padEnd(16)}  ${"import".padStart(8)} ${"export".padStart(8)} ${"SoC".padStart(6)}  rules`,
  );
  for (const slot of preview.slots) {
    const price = (value: number | undefined) => (value === undefined ? "       -" : value.toFixed(4).padStart(8));
    const soc = `${Math.round(socAt(preview, Math.max(slot.start, preview.from)))
      .toString()
      .padStart(5)}%`;
    const names = rulesIn(preview, slot.start, slot.start + SLOT_MS).join(", ");
    const mark = slot.estimated ? " (estimated)" : "";
    lines.push(
      `  ${localDateTimeText(slot.start, timeZone)}  ${price(slot.import)} ${price(slot.export)} ${soc}  ${names}${mark}`,
    );
  }
  lines.push("", ...chart(preview, timeZone));
  return `${lines.join("\n")}\n`;
}

/** Who wins each shared control, then the planned times they meet on one. */
function sharedText(shared: NonNullable<TextOptions["shared"]>, timeZone: string): string[] {
  const lines = ["Shared controls (who wins while windows overlap)", ...shared.lines.map((line) => `  ${line}`)];
  if (shared.overlaps.length === 0)
    lines.push("  in these hours no planned windows meet on one (run now can still open one)");
  for (const overlap of shared.overlaps) {
    const when =
      overlap.end === overlap.start
        ? localDateTimeText(overlap.start, timeZone)
        : `${localDateTimeText(overlap.start, timeZone)}-${localClockText(overlap.end, timeZone)}`;
    lines.push(
      `  ${when}  ${overlap.control}: ${overlap.winner} wins, ${overlap.loser} is not sent (${overlap.because})`,
    );
  }
  return lines;
}

/** One column per half-hour. */
function chart(preview: Preview, timeZone: string): string[] {
  const { min, max } = priceRange(preview);
  const level = (value: number, low: number, high: number) =>
    BLOCKS[Math.max(1, Math.min(8, Math.round(((value - low) / (high - low)) * 8)))] ?? " ";
  const row = (fn: (start: number) => string) => preview.slots.map((slot) => fn(slot.start)).join("");
  const label = (text: string) => `${text.slice(0, 19).padEnd(19)} `;
  const rows = [
    `Chart: one column per half-hour; prices ${min.toFixed(2)} to ${max.toFixed(2)}, SoC 0 to 100%`,
    `${label("import")}${preview.slots.map((slot) => (slot.import === undefined ? " " : level(slot.import, min, max))).join("")}`,
    `${label("export")}${preview.slots.map((slot) => (slot.export === undefined ? " " : level(slot.export, min, max))).join("")}`,
  ];
  for (const rule of preview.rules) {
    rows.push(
      `${label(rule.name)}${row((start) => (rulesIn({ ...preview, rules: [rule] }, start, start + SLOT_MS).length ? "█" : "·"))}`,
    );
  }
  rows.push(`${label("battery SoC")}${row((start) => level(socAt(preview, Math.max(start, preview.from)), 0, 100))}`);
  rows.push(
    `${label("")}${row((start) => {
      const text = localClockText(start, timeZone);
      return text.endsWith(":00") && Number(text.slice(0, 2)) % 6 === 0 ? "|" : " ";
    })}`,
  );
  rows.push(`${label("")}${hourLabels(preview, timeZone)}`);
  return rows;
}

/** Hour numbers under the ticks every 6 hours. */
function hourLabels(preview: Preview, timeZone: string): string {
  const cells = preview.slots.map(() => " ");
  preview.slots.forEach((slot, index) => {
    const text = localClockText(slot.start, timeZone);
    if (text.endsWith(":00") && Number(text.slice(0, 2)) % 6 === 0) {
      for (const [offset, char] of [...text.slice(0, 2)].entries())
        if (index + offset < cells.length) cells[index + offset] = char;
    }
  });
  return cells.join("");
}
