import type { PlanHelp, PlanView } from "../../plan-view.js";
import { getJson } from "../api.js";
import { h } from "../dom.js";
import type { Page } from "../page.js";
import { scrollRegion } from "../scroll-region.js";
import { legend, planChart } from "./plan-chart.js";
import { type PlanFormat, planFormat } from "./plan-format.js";
import { savingsLine, slotTable } from "./plan-slots.js";
import { conflictWords, emptyPlan } from "./plan-words.js";

export const renderPlan: Page = (main) => {
  const body = h("div", {}, h("p", {}, "Loading the plan…"));
  main.append(h("h2", {}, "Plan"), body);
  let alive = true;
  getJson<{ plan: PlanView | null; reason?: string; help?: PlanHelp }>("plan")
    .then(({ plan, reason, help }) => {
      if (!alive) return;
      body.replaceChildren(plan ? planView(plan) : emptyPlan(reason ?? "no rules are loaded", help));
    })
    .catch((error: Error) => body.replaceChildren(h("p", { class: "error" }, error.message)));
  return () => {
    alive = false;
  };
};

function planView(plan: PlanView): HTMLElement {
  const format = planFormat(plan.timeZone, plan.currency);
  const optimised = plan.rules.filter((rule) => rule.explained.length > 0);
  return h(
    "div",
    {},
    batteryLine(plan),
    h("ul", { class: "notes" }, ...plan.notes.map((note) => h("li", {}, note))),
    h(
      "p",
      { class: "plan-total", "data-cost": plan.expectedCost, "data-from": plan.from, "data-hours": plan.hours },
      `Expected over the next ${plan.hours} hours: `,
      h("strong", {}, format.money(plan.expectedCost)),
      " for import less export.",
    ),
    h(
      "p",
      { class: "hint plan-covers" },
      "What it covers: every rule that is on, each window's battery action in priority order, from the SoC above and the house's forecast use and solar; the same total as ",
      h("code", {}, "energy2mqtt rules plan"),
      ".",
    ),
    ...optimised.map((rule) => savingsLine(rule, format)),
    legend(plan, optimised.length > 0),
    h(
      "figure",
      { class: "plan-chart" },
      scrollRegion(
        "Plan chart: prices, the rules' windows and the expected SoC",
        planChart(plan, format),
        "plan-scroll",
      ),
      h(
        "figcaption",
        {},
        `${format.zoneText(plan.from)}; prices per kWh in ${plan.currency}. Hover or tap a bar or a window for its details.`,
      ),
    ),
    ...optimised.flatMap((rule) => [h("h3", {}, `Half-hour by half-hour: ${rule.name}`), slotTable(rule, format)]),
    optimised.length === 0
      ? h(
          "p",
          { class: "hint" },
          "A rule with ",
          h("code", {}, "when: { optimise: {} }"),
          " lets the optimiser plan each half-hour, and this page then shows why it does what it does.",
        )
      : null,
    h("h3", {}, "Planned windows"),
    windowsTable(plan, format),
    conflictWords(plan, format),
    ...plan.rules
      .filter((rule) => rule.notes.length)
      .map((rule) => h("p", { class: "hint" }, `${rule.name}: ${rule.notes.join("; ")}`)),
  );
}

/** The SoC the plan starts from: the daemon's live reading, or an assumption said as such. */
function batteryLine(plan: PlanView): HTMLElement {
  const { battery } = plan;
  const soc = Math.round(battery.socPercent);
  return h(
    "p",
    { class: "plan-battery", "data-soc": battery.socPercent, "data-live": battery.live },
    battery.live
      ? `Planned from the battery's live SoC, ${soc}%, `
      : `No SoC read from the battery yet: planned from an assumed ${soc}%, `,
    `of ${battery.capacityKwh} kWh (capacity from ${battery.capacitySource}).`,
  );
}

function windowsTable(plan: PlanView, format: PlanFormat): HTMLElement {
  const rows = plan.rules.flatMap((rule) =>
    rule.windows.map((window) =>
      h(
        "tr",
        { class: rule.enabled ? "" : "disabled" },
        h("th", { scope: "row" }, rule.name, rule.dryRun ? " (dry run)" : "", rule.enabled ? "" : " (off)"),
        h("td", {}, window.end === window.start ? format.time(window.start) : format.span(window.start, window.end)),
        h("td", {}, window.trigger),
        h("td", { class: "actions" }, h("ul", {}, ...window.readable.map((text) => h("li", {}, text)))),
      ),
    ),
  );
  const table = h(
    "table",
    { class: "plan-windows" },
    h("thead", {}, h("tr", {}, ...["Rule", "When", "Why", "Actions"].map((name) => h("th", { scope: "col" }, name)))),
    h("tbody", {}, ...rows),
  );
  return rows.length
    ? scrollRegion("Planned windows", table, "table-scroll")
    : h("p", { class: "hint" }, "No rule has a window in these hours.");
}
