import type { BacktestPolicy, BacktestRow } from "../../../backtest/result.js";
import { ticks } from "../chart-ticks.js";
import { s } from "../dom.js";

const HEIGHT = 240;
const TOP = 16;
const BOTTOM = 40;
const LEFT = 52;
const RIGHT = 12;

/** Each policy's bar colour (the legend names them too). */
export const POLICY_COLOURS: Readonly<Record<BacktestPolicy, string>> = {
  actual: "var(--muted)",
  "no-battery": "var(--import)",
  "eco-only": "var(--conflict)",
  rules: "var(--soc)",
  optimiser: "var(--accent)",
  "exact-optimum": "var(--export)",
};

/**
 * One tariff's cost per period as an SVG drawn to `width`: a group a period, a bar a policy (GBP,
 * import less export, for the house); the same figures are in the table below it.
 */
export function backtestChart(
  rows: readonly BacktestRow[],
  periods: readonly string[],
  policies: readonly BacktestPolicy[],
  width: number,
  label: string,
): SVGElement {
  const plotW = Math.max(40, width - LEFT - RIGHT);
  const plotH = HEIGHT - TOP - BOTTOM;
  const costs = rows.map((row) => row.costGbp);
  const steps = ticks(Math.min(0, ...costs), Math.max(0.01, ...costs), 4);
  const low = steps[0] ?? 0;
  const high = steps[steps.length - 1] ?? 1;
  const y = (gbp: number) => TOP + plotH - ((gbp - low) / (high - low || 1)) * plotH;
  const slot = plotW / Math.max(1, periods.length);
  const bar = Math.max(1, Math.min(18, (slot * 0.8) / Math.max(1, policies.length)));
  const labelEvery = Math.max(1, Math.ceil(84 / slot));
  const svg = s("svg", {
    class: "backtest-chart",
    width,
    height: HEIGHT,
    viewBox: `0 0 ${width} ${HEIGHT}`,
    role: "img",
    "aria-label": label,
  });
  for (const tick of steps) {
    svg.append(
      s("line", { x1: LEFT, x2: LEFT + plotW, y1: y(tick), y2: y(tick), class: tick === 0 ? "bt-axis" : "bt-grid" }),
      s("text", { x: LEFT - 6, y: y(tick) + 4, "text-anchor": "end", class: "bt-tick" }, `£${tick.toFixed(2)}`),
    );
  }
  periods.forEach((period, index) => {
    const left = LEFT + index * slot + (slot - bar * policies.length) / 2;
    const group = s("g", { "data-period": period });
    policies.forEach((policy, at) => {
      const row = rows.find((one) => one.period === period && one.policy === policy);
      if (!row) return;
      const top = Math.min(y(row.costGbp), y(0));
      group.append(
        s("rect", {
          x: left + at * bar,
          y: top,
          width: Math.max(1, bar - 1),
          height: Math.max(1, Math.abs(y(row.costGbp) - y(0))),
          fill: POLICY_COLOURS[policy],
          "data-policy": policy,
          "data-cost": row.costGbp,
        }),
      );
    });
    if (index % labelEvery === 0)
      group.append(
        s(
          "text",
          { x: LEFT + index * slot + slot / 2, y: HEIGHT - BOTTOM + 16, "text-anchor": "middle", class: "bt-tick" },
          period.includes("..") ? "whole range" : period,
        ),
      );
    svg.append(group);
  });
  return svg;
}
