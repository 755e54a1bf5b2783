import type { PlanExplainedSlot, PlanRule } from "../../plan-view.js";
import { h } from "../dom.js";
import { scrollRegion } from "../scroll-region.js";
import type { PlanFormat } from "./plan-format.js";

/** The optimiser's actions as the table names them; self-use is the inverter's eco mode. */
const ACTION_TEXT: Readonly<Record<PlanExplainedSlot["action"], string>> = {
  charge: "Charge",
  export: "Export",
  hold: "Hold",
  "self-use": "Self-use (eco)",
};

/**
 * An optimise rule's half-hours: time, action (a colour per action, and its name), prices, the
 * SoC expected at the half-hour's end, forecast load and solar, the car's charging (when the
 * rule plans a car), cost, running total and why.
 */
export function slotTable(rule: PlanRule, format: PlanFormat): HTMLElement {
  const kwh = (value: number) => value.toFixed(2);
  const car = rule.explained.some((slot) => slot.carKwh !== undefined);
  const columns = ["Time", "Action", "Import", "Export", "SoC", "Load", "Solar", ...(car ? ["Car"] : []), "Cost"];
  const table = h(
    "table",
    { class: "plan-slots", "data-rule": rule.name },
    h(
      "caption",
      {},
      `The optimiser's half-hours for ${rule.name}${rule.enabled ? "" : " (switched off)"}: SoC at each half-hour's end; ${car ? "load, solar and the car's charging in kWh (the car's within the load)" : "load and solar in kWh"}`,
    ),
    h("thead", {}, h("tr", {}, ...[...columns, "Total", "Why"].map((name) => h("th", { scope: "col" }, name)))),
    h(
      "tbody",
      {},
      ...rule.explained.map((slot) => {
        const exports = slot.action === "export" || slot.exportKwh > 0;
        return h(
          "tr",
          { "data-action": slot.action, "data-start": slot.start, "data-running": slot.runningCost },
          h("th", { scope: "row" }, format.time(slot.start)),
          h("td", {}, h("span", { class: `slot-action action-${slot.action}` }, ACTION_TEXT[slot.action])),
          h("td", { class: "num" }, format.price(slot.importPrice)),
          h("td", { class: "num" }, exports ? format.price(slot.exportPrice) : "–"),
          h("td", { class: "num" }, `${Math.round(slot.socPercent)}%`),
          h("td", { class: "num" }, kwh(slot.loadKwh)),
          h("td", { class: "num" }, kwh(slot.solarKwh)),
          ...(car ? [h("td", { class: "num car" }, kwh(slot.carKwh ?? 0))] : []),
          h("td", { class: "num" }, format.money(slot.cost)),
          h("td", { class: "num running" }, format.money(slot.runningCost)),
          h("td", { class: "reason" }, reasonText(slot.reason)),
        );
      }),
    ),
  );
  return scrollRegion(`Half-hour plan of ${rule.name}`, table, "table-scroll");
}

/** The reason without its leading "charge: ", which the action column already says. */
function reasonText(reason: string): string {
  const text = reason.replace(/^[a-z-]+: /, "");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * "Against doing nothing": the optimiser's own model of its half-hours against the same house with
 * no battery. Not the headline: that one runs the windows as they will be sent, every rule's.
 */
export function savingsLine(rule: PlanRule, format: PlanFormat): HTMLElement | null {
  const last = rule.explained.at(-1);
  if (!last || rule.noBatteryCost === null) return null;
  const saved = rule.noBatteryCost - last.runningCost;
  return h(
    "p",
    { class: "plan-savings", "data-rule": rule.name },
    `${rule.name} on its own, as the optimiser models its ${rule.explained.length} half-hours: `,
    h("strong", {}, format.money(last.runningCost)),
    "; with no battery the same house would pay ",
    h("strong", {}, format.money(rule.noBatteryCost)),
    saved >= 0 ? ": it saves " : ": it costs ",
    h("strong", { class: "saved" }, format.money(Math.abs(saved))),
    saved >= 0 ? "" : " more",
    ". It differs from the total above, which runs the windows as they will be sent with every other rule's too; what is left in the battery at the end is counted in neither.",
  );
}
