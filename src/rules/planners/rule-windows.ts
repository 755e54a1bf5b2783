import { HOUR_MS, nextLocalTime } from "../../time/local-time.js";
import type { Rule, RulesFile } from "../schema.js";
import { tariffOf } from "../schema.js";
import type { Tariff } from "../tariffs/index.js";
import type { TemplateContext } from "../templates.js";
import { type Interval, planBattery, planEv, planWindow, type WindowPlan } from "./planner.js";

/** One window a rule's tariff trigger planned. */
export interface PlannedWindow extends Interval {
  readonly rule: string;
  /** The index in the rule's `when` of the trigger that planned it. */
  readonly trigger: number;
  /** The planning period (trigger and deadline) it belongs to: once one of its windows opens, it is kept. */
  readonly period: string;
  /** e.g. "cheapest 3 h before 07:00". */
  readonly label: string;
  /** Average price of the tariff the trigger reads, when known. */
  readonly averagePrice: number | undefined;
  /** What the plan it belongs to costs (battery and EV plans); undefined for others or when a slot has no price. */
  readonly cost: number | undefined;
  /** True for windows meant for cheap import (cheapest, battery, ev, price below). */
  readonly cheapImport: boolean;
  /** Plan values for the templates (plan.*, window.average_price). */
  readonly plan: TemplateContext;
}

export interface WindowInput {
  readonly rules: RulesFile;
  readonly tariffs: { readonly import?: Tariff; readonly export?: Tariff };
  readonly timeZone: string;
  readonly now: number;
  readonly to: number;
  /** Battery SoC, %; battery plans are skipped while it is unknown. */
  readonly soc: number | undefined;
  readonly capacityKwh: number | undefined;
}

/** A point of the SoC a battery plan expects. */
export interface SocPoint {
  readonly at: number;
  /** %. */
  readonly soc: number;
}

export interface RuleWindows {
  /** In time order. */
  readonly windows: PlannedWindow[];
  /** Fallbacks the plans took, and why a plan could not be made. */
  readonly notes: string[];
  /** The SoC the rule's battery plans expect, period by period; the house's own use is not modelled. */
  readonly soc: SocPoint[];
}

/** The windows a rule's tariff triggers plan between now and `to`, in time order. */
export function planRuleWindows(rule: Rule, input: WindowInput): RuleWindows {
  const windows: PlannedWindow[] = [];
  const notes: string[] = [];
  const soc: SocPoint[] = [];
  rule.when.forEach((trigger, index) => {
    const tariff = tariffOf(trigger);
    const rates = tariff ? (input.tariffs[tariff]?.rates(input.now, input.to) ?? []) : [];
    const add = (
      plan: WindowPlan,
      period: string,
      label: string,
      cheapImport: boolean,
      cost: number | undefined,
      extra: TemplateContext,
    ) => {
      if (plan.fallback !== "none") for (const note of plan.notes) notes.push(`${label}: ${note}`);
      const average = plan.averagePrice ?? null;
      for (const window of plan.windows) {
        windows.push({
          ...window,
          rule: rule.name,
          trigger: index,
          period,
          label,
          averagePrice: plan.averagePrice,
          cost,
          cheapImport,
          plan: { "window.average_price": average, ...extra },
        });
      }
    };
    if (trigger.price) {
      const { below, above } = trigger.price;
      const label = `${trigger.price.tariff} price${below !== undefined ? ` below ${below}` : ""}${above !== undefined ? ` above ${above}` : ""}`;
      const matching = rates.filter(
        (rate) => (below === undefined || rate.price < below) && (above === undefined || rate.price > above),
      );
      for (const run of runs(matching)) {
        const average = run.sum / ((run.end - run.start) / HOUR_MS);
        windows.push({
          start: run.start,
          end: run.end,
          rule: rule.name,
          trigger: index,
          period: `${index}:${run.start}`,
          label,
          averagePrice: average,
          cost: undefined,
          cheapImport: trigger.price.tariff === "import" && below !== undefined,
          plan: { "window.average_price": average },
        });
      }
      return;
    }
    const spec = trigger.cheapest ?? trigger.most_expensive;
    if (spec) {
      const label = `${trigger.cheapest ? "cheapest" : "most expensive"} ${spec.hours} h before ${spec.before}`;
      for (const period of periods(input, spec.before, spec.after)) {
        const plan = planWindow({
          ...period,
          rates,
          durationMs: spec.hours * HOUR_MS,
          split: spec.split,
          prefer: trigger.cheapest ? "cheapest" : "dearest",
        });
        add(
          plan,
          `${index}:${period.deadline}`,
          label,
          trigger.cheapest !== undefined && spec.tariff === "import",
          undefined,
          {},
        );
      }
      return;
    }
    if (trigger.battery) {
      const battery = trigger.battery;
      const label = `battery to ${battery.target_soc}% before ${battery.before}`;
      const capacityKwh = input.rules.battery.capacity_kwh ?? input.capacityKwh;
      if (input.soc === undefined || capacityKwh === undefined) {
        notes.push(`${label}: the battery's ${input.soc === undefined ? "SoC" : "capacity"} is not known yet`);
        return;
      }
      for (const period of periods(input, battery.before, battery.after)) {
        const plan = planBattery({
          ...period,
          rates,
          capacityKwh,
          soc: input.soc,
          targetSoc: battery.target_soc,
          efficiency: input.rules.battery.efficiency,
          chargeKw: battery.charge_kw ?? input.rules.battery.charge_kw,
          split: battery.split,
        });
        soc.push(...plan.soc);
        add(plan, `${index}:${period.deadline}`, label, true, plan.cost, {
          "plan.target_soc": battery.target_soc,
          "plan.kwh": plan.plannedKwh,
          "plan.cost": plan.cost ?? null,
        });
      }
      return;
    }
    if (trigger.ev) {
      const ev = trigger.ev;
      const label = `EV ${ev.kwh} kWh before ${ev.before}`;
      for (const period of periods(input, ev.before, ev.after)) {
        const plan = planEv({
          ...period,
          rates,
          kwh: ev.kwh,
          chargeKw: ev.charge_kw ?? input.rules.ev.charge_kw,
          split: ev.split,
        });
        add(plan, `${index}:${period.deadline}`, label, true, plan.cost, {
          "plan.kwh": plan.plannedKwh,
          "plan.cost": plan.cost ?? null,
        });
      }
    }
  });
  windows.sort((a, b) => a.start - b.start);
  return { windows, notes, soc };
}

/** One planning period per deadline in the horizon, from the later of now, the previous deadline and `after`. */
function periods(input: WindowInput, before: string, after: string | undefined) {
  const found: { now: number; deadline: number }[] = [];
  let previous = input.now;
  for (let deadline = nextLocalTime(input.now, before, input.timeZone); deadline <= input.to; ) {
    const opens = after ? nextLocalTime(deadline - 24 * HOUR_MS, after, input.timeZone) : previous;
    found.push({ now: Math.max(previous, opens >= deadline ? previous : opens), deadline });
    previous = deadline;
    deadline = nextLocalTime(deadline, before, input.timeZone);
  }
  return found;
}

/** Touching rates merged, with the sum of price x hours for the average. */
function runs(rates: readonly { start: number; end: number; price: number }[]) {
  const merged: { start: number; end: number; sum: number }[] = [];
  for (const rate of rates) {
    const last = merged[merged.length - 1];
    const sum = (rate.price * (rate.end - rate.start)) / HOUR_MS;
    if (last && last.end === rate.start) merged[merged.length - 1] = { ...last, end: rate.end, sum: last.sum + sum };
    else merged.push({ start: rate.start, end: rate.end, sum });
  }
  return merged;
}
