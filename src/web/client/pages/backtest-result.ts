import type { BacktestResult } from "../../../backtest/result.js";
import { BACKTEST_POLICY_HEADS, backtestCell, backtestGrid } from "../../../backtest/table-cells.js";
import { h } from "../dom.js";
import { scrollRegion } from "../scroll-region.js";
import { backtestChart, POLICY_COLOURS } from "./backtest-chart.js";

/** Whose figures these are: the store's half-hours summed over every inverter. */
const SCOPE = "the house (every inverter together)";

/** The CLI's table, a tariff at a time, each with its chart; the assumptions below. */
export function backtestResultView(result: BacktestResult, width: number): HTMLElement {
  const tariffs = result.tariffs.map((tariff) => {
    const { rows, policies, periods } = backtestGrid(result.rows, tariff.name);
    const scope = `cost in GBP per ${result.by === "range" ? "the whole range" : result.by} for ${SCOPE}, ${tariff.name} tariff`;
    const head = h(
      "tr",
      {},
      h("th", { scope: "col" }, "period"),
      ...policies.map((policy) => h("th", { scope: "col", class: "num" }, BACKTEST_POLICY_HEADS[policy])),
    );
    const body = periods.map((period) =>
      h(
        "tr",
        { "data-period": period },
        h("th", { scope: "row" }, period),
        ...policies.map((policy) => {
          const row = rows.find((one) => one.period === period && one.policy === policy);
          return h(
            "td",
            {
              class: "num",
              "data-policy": policy,
              "data-cost": row?.costGbp,
              "data-saved": row?.savedVsNoBatteryGbp,
              "data-import": row?.importKwh,
              "data-export": row?.exportKwh,
            },
            backtestCell(row),
          );
        }),
      ),
    );
    const table = h(
      "table",
      { class: "backtest-table", "data-tariff": tariff.name },
      h("caption", {}, `Import less export, ${scope}; saved against no battery in brackets`),
      h("thead", {}, head),
      h("tbody", {}, ...body),
    );
    return h(
      "section",
      { class: "backtest-tariff", "aria-label": `Tariff ${tariff.name}` },
      h("h3", {}, `Tariff ${tariff.name}`),
      h("p", { class: "hint" }, `Prices: ${tariff.source}`),
      h(
        "ul",
        { class: "backtest-key", "aria-label": "Chart key" },
        ...policies.map((policy) =>
          h(
            "li",
            {},
            h("span", { class: "swatch", style: `background:${POLICY_COLOURS[policy]}`, "aria-hidden": "true" }),
            BACKTEST_POLICY_HEADS[policy],
          ),
        ),
      ),
      h(
        "figure",
        { class: "backtest-figure" },
        chartBox(width, (drawn) =>
          backtestChart(
            rows,
            periods,
            policies,
            drawn,
            `Bars: ${scope}, one a policy; the same figures are in the table below`,
          ),
        ),
        h("figcaption", { class: "hint" }, `Cost per period by policy: ${scope}.`),
      ),
      scrollRegion(`Backtest table, ${tariff.name} tariff`, table),
    );
  });
  const times = Object.entries(result.seconds).map(([policy, seconds]) => `${policy} ${seconds.toFixed(1)} s`);
  return h(
    "div",
    { class: "backtest-result" },
    h(
      "p",
      { class: "backtest-summary" },
      `Backtest ${result.from} to ${result.to} (${result.timeZone}), by ${result.by}, for ${SCOPE}: ${result.halfHours} half-hours replayed.`,
    ),
    ...tariffs,
    rulesReplayed(result),
    h("h3", {}, "Assumptions"),
    h("ul", { class: "backtest-assumptions" }, ...result.assumptions.map((line) => h("li", {}, line))),
    times.length > 0 ? h("p", { class: "hint" }, `Run time: ${times.join(", ")}`) : null,
  );
}

/** What each rule did in the rules policy's replay, per tariff (the CLI's "Rules replayed" lines); nothing without the rules policy. */
function rulesReplayed(result: BacktestResult): HTMLElement | null {
  const rules = result.rules ?? [];
  if (rules.length === 0) return null;
  const table = h(
    "table",
    { class: "backtest-rules-table" },
    h("caption", {}, "What each rule of the rules file did in the rules policy's replay"),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, "tariff"),
        h("th", { scope: "col" }, "rule"),
        h("th", { scope: "col", class: "num" }, "changes written"),
        h("th", { scope: "col", class: "num" }, "windows opened"),
        h("th", { scope: "col" }, "not replayed"),
      ),
    ),
    h(
      "tbody",
      {},
      ...rules.map((rule) =>
        h(
          "tr",
          { "data-tariff": rule.tariff, "data-rule": rule.name },
          h("td", {}, rule.tariff),
          h("th", { scope: "row" }, rule.name),
          h("td", { class: "num" }, String(rule.changes)),
          h("td", { class: "num" }, String(rule.windows)),
          h("td", {}, rule.notReplayed.length > 0 ? rule.notReplayed.join(", ") : "nothing"),
        ),
      ),
    ),
  );
  return h(
    "section",
    { class: "backtest-rules", "aria-label": "Rules replayed" },
    h("h3", {}, "Rules replayed"),
    scrollRegion("Rules replayed", table),
  );
}

/** The chart drawn to its box's width, again when the box changes width (a phone turned, a window resized). */
function chartBox(width: number, draw: (width: number) => SVGElement): HTMLElement {
  const box = h("div", { class: "backtest-chart-box" }, draw(width));
  let drawn = width;
  new ResizeObserver(() => {
    const now = Math.max(280, Math.floor(box.clientWidth));
    if (box.clientWidth === 0 || now === drawn) return;
    drawn = now;
    box.replaceChildren(draw(now));
  }).observe(box);
  return box;
}
