import type { PlanView } from "../../plan-view.js";
import { getJson } from "../api.js";
import { h, s } from "../dom.js";
import type { Page } from "../page.js";

const W = 1000;
const CHART_H = 220;
const LANE_H = 26;
const LEFT = 48;
const RIGHT = 40;

export const renderPlan: Page = (main) => {
  const body = h("div", {}, h("p", {}, "Loading the plan…"));
  main.append(h("h2", {}, "Plan"), body);
  let alive = true;
  getJson<{ plan: PlanView | null; reason?: string }>("plan")
    .then(({ plan, reason }) => {
      if (!alive) return;
      body.replaceChildren(plan ? planView(plan) : h("p", {}, `No plan: ${reason ?? "no rules are loaded"}.`));
    })
    .catch((error: Error) => body.replaceChildren(h("p", { class: "error" }, error.message)));
  return () => {
    alive = false;
  };
};

function planView(plan: PlanView): HTMLElement {
  const zone = plan.timeZone;
  const time = (ms: number) =>
    new Date(ms).toLocaleString(undefined, { timeZone: zone, weekday: "short", hour: "2-digit", minute: "2-digit" });
  return h(
    "div",
    {},
    h("ul", { class: "notes" }, ...plan.notes.map((note) => h("li", {}, note))),
    legend(),
    h(
      "figure",
      { class: "plan-chart" },
      chart(plan),
      h("figcaption", {}, `Times in ${zone}; prices per kWh in ${plan.currency}.`),
    ),
    h("h3", {}, "Planned windows"),
    h(
      "div",
      { class: "scroll" },
      h(
        "table",
        {},
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", {}, "Rule"),
            h("th", {}, "From"),
            h("th", {}, "To"),
            h("th", {}, "Why"),
            h("th", {}, "Actions"),
          ),
        ),
        h(
          "tbody",
          {},
          ...plan.rules.flatMap((rule) =>
            rule.windows.map((window) =>
              h(
                "tr",
                { class: rule.enabled ? "" : "disabled" },
                h("td", {}, rule.name, rule.dryRun ? " (dry run)" : "", rule.enabled ? "" : " (off)"),
                h("td", {}, time(window.start)),
                h("td", {}, time(window.end)),
                h("td", {}, window.trigger),
                h("td", {}, h("ul", {}, ...window.actions.map((action) => h("li", {}, h("code", {}, action))))),
              ),
            ),
          ),
        ),
      ),
    ),
    plan.conflicts.length
      ? h(
          "section",
          { class: "conflicts" },
          h("h3", {}, "Conflicts"),
          h(
            "ul",
            {},
            ...plan.conflicts.map((c) =>
              h(
                "li",
                {},
                `${c.rules[0]} and ${c.rules[1]} overlap ${time(c.start)} – ${time(c.end)}: the higher priority wins the device`,
              ),
            ),
          ),
        )
      : null,
    ...plan.rules
      .filter((rule) => rule.notes.length)
      .map((rule) => h("p", { class: "hint" }, `${rule.name}: ${rule.notes.join("; ")}`)),
  );
}

function legend(): HTMLElement {
  const item = (cls: string, label: string) => h("li", {}, h("span", { class: `swatch ${cls}` }), label);
  return h(
    "ul",
    { class: "legend", "aria-label": "Legend" },
    item("import", "Import price"),
    item("export", "Export price"),
    item("soc", "Expected battery SoC (right axis)"),
    item("window", "Rule window"),
    item("conflict", "Conflict"),
  );
}

function chart(plan: PlanView): SVGElement {
  const lanes = plan.rules.length + (plan.conflicts.length ? 1 : 0);
  const height = CHART_H + 30 + lanes * LANE_H + 10;
  const x = (ms: number) => LEFT + ((ms - plan.from) / (plan.to - plan.from)) * (W - LEFT - RIGHT);
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
  const slotW = (30 * 60_000 * (W - LEFT - RIGHT)) / (plan.to - plan.from);
  for (const slot of plan.slots) {
    const left = Math.max(LEFT, x(slot.start));
    if (slot.import !== null)
      svg.append(
        s("rect", {
          class: "import",
          x: left,
          y: Math.min(py(slot.import), py(0)),
          width: slotW / 2,
          height: Math.abs(py(0) - py(slot.import)),
        }),
      );
    if (slot.export !== null)
      svg.append(
        s("rect", {
          class: "export",
          x: left + slotW / 2,
          y: Math.min(py(slot.export), py(0)),
          width: slotW / 2,
          height: Math.abs(py(0) - py(slot.export)),
        }),
      );
  }
  for (const tick of [min, (min + max) / 2, max])
    svg.append(s("text", { x: LEFT - 6, y: py(tick) + 4, "text-anchor": "end", class: "axis" }, tick.toFixed(2)));
  for (const soc of [0, 50, 100]) svg.append(s("text", { x: W - RIGHT + 6, y: sy(soc) + 4, class: "axis" }, `${soc}%`));
  const hours = 6 * 3_600_000;
  for (let t = Math.ceil(plan.from / hours) * hours; t < plan.to; t += hours) {
    svg.append(s("line", { x1: x(t), x2: x(t), y1: 10, y2: CHART_H, class: "grid" }));
    const label = new Date(t).toLocaleString(undefined, { timeZone: plan.timeZone, weekday: "short", hour: "2-digit" });
    svg.append(s("text", { x: x(t), y: CHART_H + 16, "text-anchor": "middle", class: "axis" }, label));
  }
  const points = plan.soc.map((p) => `${x(p.at).toFixed(1)},${sy(p.soc).toFixed(1)}`).join(" ");
  svg.append(s("polyline", { class: "soc-line", points, "data-points": plan.soc.length }));
  let lane = CHART_H + 30;
  for (const rule of plan.rules) {
    svg.append(s("text", { x: 4, y: lane + 17, class: "lane-label" }, rule.name));
    for (const window of rule.windows) {
      const wx = x(window.start);
      svg.append(
        s(
          "rect",
          {
            class: `window${rule.enabled ? "" : " off"}`,
            x: wx,
            y: lane + 4,
            width: Math.max(3, x(window.end) - wx),
            height: LANE_H - 8,
          },
          s("title", {}, `${rule.name}: ${window.trigger}\n${window.actions.join("\n")}`),
        ),
      );
    }
    lane += LANE_H;
  }
  if (plan.conflicts.length) {
    svg.append(s("text", { x: 4, y: lane + 17, class: "lane-label" }, "conflicts"));
    for (const c of plan.conflicts)
      svg.append(
        s(
          "rect",
          {
            class: "conflict",
            x: x(c.start),
            y: lane + 4,
            width: Math.max(3, x(c.end) - x(c.start)),
            height: LANE_H - 8,
          },
          s("title", {}, c.rules.join(" / ")),
        ),
      );
  }
  return svg;
}
