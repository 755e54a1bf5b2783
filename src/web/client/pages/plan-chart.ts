import type { PlanView } from "../../plan-view.js";
import { h, s } from "../dom.js";
import type { PlanFormat } from "./plan-format.js";
import { contestsIn } from "./plan-words.js";

const W = 1000;
const SLOT_MS = 30 * 60_000;
const CHART_H = 220;
const LANE_H = 26;
const MIN_LEFT = 52;
const RIGHT = 44;
/** About one character of a lane label at its font size, in the chart's units. */
const CHAR = 7.6;

/** What the chart's marks mean; with an optimiser, its export and hold windows' colours too. */
export function legend(plan: PlanView, optimised: boolean): HTMLElement {
  const clashes = plan.conflicts.map((conflict) => contestsIn(conflict, plan.contests).length > 0);
  const item = (cls: string, label: string) => h("li", {}, h("span", { class: `swatch ${cls}` }), label);
  return h(
    "ul",
    { class: "legend", "aria-label": "Legend" },
    item("import", "Import price"),
    item("export", "Export price"),
    item("soc", "Expected battery SoC (right axis)"),
    item("window", optimised ? "Rule window (the optimiser's: charge)" : "Rule window"),
    optimised ? item("export-window", "Optimiser: export") : null,
    optimised ? item("hold", "Optimiser: hold") : null,
    clashes.includes(true) ? item("conflict", "Conflict: one rule's change is not sent") : null,
    clashes.includes(false) ? item("overlap", "Overlap on different controls: both are sent") : null,
  );
}

/** Prices as bars, the expected SoC as a line, each rule's windows in a lane, the conflicts in the last. */
export function planChart(plan: PlanView, format: PlanFormat): SVGElement {
  const lanes = plan.rules.length + (plan.conflicts.length ? 1 : 0);
  const height = CHART_H + 30 + lanes * LANE_H + 10;
  // Wide enough for the longest lane label, so no rule's name runs into its windows.
  const names = [...plan.rules.map((rule) => rule.name), plan.conflicts.length ? "overlaps" : ""];
  const left = Math.max(MIN_LEFT, Math.ceil(Math.max(...names.map((name) => name.length)) * CHAR) + 10);
  const x = (ms: number) => left + ((ms - plan.from) / (plan.to - plan.from)) * (W - left - RIGHT);
  const prices = plan.slots.flatMap((slot) => [slot.import, slot.export]).filter((p): p is number => p !== null);
  const min = Math.min(0, ...prices);
  const max = Math.max(min + 0.01, ...prices);
  const py = (price: number) => 10 + (1 - (price - min) / (max - min)) * (CHART_H - 20);
  const sy = (soc: number) => 10 + (1 - soc / 100) * (CHART_H - 20);
  const svg = s("svg", {
    viewBox: `0 0 ${W} ${height}`,
    role: "img",
    "aria-label": "Prices, the rules' windows and the expected battery SoC",
    class: "plan",
  });
  const slotW = (30 * 60_000 * (W - left - RIGHT)) / (plan.to - plan.from);
  for (const slot of plan.slots) {
    const at = Math.max(left, x(slot.start));
    const bar = (cls: string, price: number, offset: number) =>
      s(
        "rect",
        {
          class: cls,
          x: at + offset,
          y: Math.min(py(price), py(0)),
          width: slotW / 2,
          height: Math.abs(py(0) - py(price)),
        },
        s(
          "title",
          {},
          `${format.time(slot.start)} ${cls} ${format.price(price)}${slot.estimated ? " (estimated)" : ""}`,
        ),
      );
    if (slot.import !== null) svg.append(bar("import", slot.import, 0));
    if (slot.export !== null) svg.append(bar("export", slot.export, slotW / 2));
  }
  for (const tick of [min, (min + max) / 2, max])
    svg.append(s("text", { x: left - 6, y: py(tick) + 4, "text-anchor": "end", class: "axis" }, format.price(tick)));
  for (const soc of [0, 50, 100]) svg.append(s("text", { x: W - RIGHT + 6, y: sy(soc) + 4, class: "axis" }, `${soc}%`));
  const step = 3 * 3_600_000;
  for (let t = Math.ceil(plan.from / step) * step; t < plan.to; t += step) {
    svg.append(s("line", { x1: x(t), x2: x(t), y1: 10, y2: CHART_H, class: "grid" }));
    const midnight = format.clock(t).replace(/\D/g, "") === "0000";
    const label = midnight || t === Math.ceil(plan.from / step) * step ? format.time(t) : format.clock(t);
    svg.append(s("text", { x: x(t), y: CHART_H + 16, "text-anchor": "middle", class: "axis" }, label));
  }
  const points = plan.soc.map((p) => `${x(p.at).toFixed(1)},${sy(p.soc).toFixed(1)}`).join(" ");
  svg.append(s("polyline", { class: "soc-line", points, "data-points": plan.soc.length }));
  let lane = CHART_H + 30;
  for (const rule of plan.rules) {
    svg.append(s("text", { x: 4, y: lane + 17, class: "lane-label" }, rule.name));
    for (const window of rule.windows) {
      const wx = x(window.start);
      // An optimiser's window in its half-hours' colour: the table's charge, export or hold.
      const mode = rule.explained.find((slot) => slot.start <= window.start && window.start < slot.start + SLOT_MS);
      svg.append(
        s(
          "rect",
          {
            class: `window${mode ? ` mode-${mode.action}` : ""}${rule.enabled ? "" : " off"}`,
            x: wx,
            y: lane + 4,
            width: Math.max(3, x(window.end) - wx),
            height: LANE_H - 8,
          },
          s(
            "title",
            {},
            `${rule.name}, ${format.span(window.start, window.end)}: ${window.trigger}\n${window.readable.join("\n")}`,
          ),
        ),
      );
    }
    lane += LANE_H;
  }
  if (plan.conflicts.length) {
    svg.append(s("text", { x: 4, y: lane + 17, class: "lane-label" }, "overlaps"));
    for (const c of plan.conflicts) {
      const clash = contestsIn(c, plan.contests).length > 0;
      svg.append(
        s(
          "rect",
          {
            class: clash ? "conflict" : "overlap",
            x: x(c.start),
            y: lane + 4,
            width: Math.max(3, x(c.end) - x(c.start)),
            height: LANE_H - 8,
          },
          s(
            "title",
            {},
            `${c.rules.join(" and ")}, ${format.span(c.start, c.end)}: ${clash ? "a conflict, one change not sent" : "different controls, both sent"}`,
          ),
        ),
      );
    }
  }
  return svg;
}
