import { type ExplainedSlot, explainSchedule } from "../../optimiser/index.js";
import { HOUR_MS, nextLocalTime } from "../../time/index.js";
import type { Action } from "../file/action-schema.js";
import type { Rule, RulesFile } from "../file/schema.js";
import { isWindowTrigger, tariffOf } from "../file/schema.js";
import type { TemplateContext } from "../file/templates.js";
import { type Trigger, triggerKind, type WINDOW_TRIGGERS } from "../file/trigger-schema.js";
import type { Rate, Tariff } from "../tariffs/index.js";
import { type CarInputs, carActions, carNeed, jointWindows } from "./car-windows.js";
import {
  type HouseForecast,
  MODE_ACTIONS,
  type ModeWindow,
  modeLabel,
  type PriceHistory,
  planOptimiseWindows,
} from "./optimise-windows.js";
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
  /** What the window writes when its rule gives no do: of its own (the optimiser's modes). */
  readonly actions?: readonly Action[];
  /** The optimiser's mode and target for the window (optimise triggers only): re-planning may change them. */
  readonly optimised?: ModeWindow;
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
  /** The house's forecast consumption and solar, for the optimiser; left out, not modelled. */
  readonly house?: HouseForecast;
  /** The car's plug state, its targets from Home Assistant and what it was given, for an optimise rule's car. */
  readonly car?: CarInputs;
  /** Prices published before now, for the optimiser's forecast beyond the published ones; left out, none. */
  readonly priceHistory?: PriceHistory;
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
  /**
   * The optimiser's half-hours with the reason for each (optimise triggers only), worked out when
   * first asked for: the engine re-plans every half-hour and reads them only when shown.
   */
  readonly explained: () => readonly ExplainedSlot[];
}

/** What the planner of one window trigger is given, and where it puts what it plans. */
export interface TriggerPlanning {
  readonly rule: Rule;
  /** The trigger's index in the rule's `when`. */
  readonly index: number;
  readonly input: WindowInput;
  /** The rates of the tariff the trigger reads, from now to the horizon; none for a trigger that reads none. */
  readonly rates: readonly Rate[];
  /** Adds a window (in any order: they are sorted at the end). */
  window(window: PlannedWindow): void;
  /** Adds a fallback a plan took, or why a plan could not be made. */
  note(text: string): void;
  /** Adds the SoC a battery plan expects. */
  soc(points: readonly SocPoint[]): void;
  /** Adds the optimiser's explained half-hours, as they are worked out. */
  explain(rows: () => readonly ExplainedSlot[]): void;
}

/**
 * Plans the windows of one kind of window trigger. Every kind has one; a new kind (one that takes
 * its windows from an optimiser, say) adds its key to WINDOW_TRIGGERS and the trigger schema and
 * its planner to TRIGGER_PLANNERS; the engine and `rules plan` then open and show its windows.
 */
export type TriggerPlanner = (trigger: Trigger, planning: TriggerPlanning) => void;

export type WindowTriggerKind = (typeof WINDOW_TRIGGERS)[number];

/** The windows a rule's window triggers plan between now and `to`, in time order. */
export function planRuleWindows(rule: Rule, input: WindowInput): RuleWindows {
  const windows: PlannedWindow[] = [];
  const notes: string[] = [];
  const soc: SocPoint[] = [];
  const explaining: (() => readonly ExplainedSlot[])[] = [];
  rule.when.forEach((trigger, index) => {
    if (!isWindowTrigger(trigger)) return;
    const tariff = tariffOf(trigger);
    const rates = tariff ? (input.tariffs[tariff]?.rates(input.now, input.to) ?? []) : [];
    TRIGGER_PLANNERS[triggerKind(trigger) as WindowTriggerKind](trigger, {
      rule,
      index,
      input,
      rates,
      window: (window) => windows.push(window),
      note: (text) => notes.push(text),
      soc: (points) => soc.push(...points),
      explain: (rows) => explaining.push(rows),
    });
  });
  windows.sort((a, b) => a.start - b.start);
  return { windows, notes, soc, explained: once(() => explaining.flatMap((rows) => rows())) };
}

/** `make` called the first time it is asked for, its answer kept. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}

/** Runs of prices below (or above) a limit. */
const planPriceWindows: TriggerPlanner = (trigger, planning) => {
  const spec = trigger.price;
  if (!spec) return;
  const { below, above } = spec;
  const label = `${spec.tariff} price${below !== undefined ? ` below ${below}` : ""}${above !== undefined ? ` above ${above}` : ""}`;
  const matching = planning.rates.filter(
    (rate) => (below === undefined || rate.price < below) && (above === undefined || rate.price > above),
  );
  for (const run of runs(matching)) {
    const average = run.sum / ((run.end - run.start) / HOUR_MS);
    planning.window({
      start: run.start,
      end: run.end,
      rule: planning.rule.name,
      trigger: planning.index,
      period: `${planning.index}:${run.start}`,
      label,
      averagePrice: average,
      cost: undefined,
      cheapImport: spec.tariff === "import" && below !== undefined,
      plan: { "window.average_price": average },
    });
  }
};

/** The cheapest (or dearest) hours before each deadline. */
const planRankedWindows: TriggerPlanner = (trigger, planning) => {
  const spec = trigger.cheapest ?? trigger.most_expensive;
  if (!spec) return;
  const label = `${trigger.cheapest ? "cheapest" : "most expensive"} ${spec.hours} h before ${spec.before}`;
  const cheapImport = trigger.cheapest !== undefined && spec.tariff === "import";
  for (const period of periods(planning.input, spec.before, spec.after)) {
    const plan = planWindow({
      ...period,
      rates: planning.rates,
      durationMs: spec.hours * HOUR_MS,
      split: spec.split,
      prefer: trigger.cheapest ? "cheapest" : "dearest",
    });
    addPlan(planning, plan, { period: `${planning.index}:${period.deadline}`, label, cheapImport, cost: undefined });
  }
};

/** The battery to a SoC before each deadline, in the cheapest slots. */
const planBatteryWindows: TriggerPlanner = (trigger, planning) => {
  const battery = trigger.battery;
  if (!battery) return;
  const { input } = planning;
  const label = `battery to ${battery.target_soc}% before ${battery.before}`;
  const capacityKwh = input.rules.battery.capacity_kwh ?? input.capacityKwh;
  if (input.soc === undefined || capacityKwh === undefined) {
    planning.note(`${label}: the battery's ${input.soc === undefined ? "SoC" : "capacity"} is not known yet`);
    return;
  }
  for (const period of periods(input, battery.before, battery.after)) {
    const plan = planBattery({
      ...period,
      rates: planning.rates,
      capacityKwh,
      soc: input.soc,
      targetSoc: battery.target_soc,
      efficiency: input.rules.battery.efficiency,
      chargeKw: battery.charge_kw ?? input.rules.battery.charge_kw,
      split: battery.split,
    });
    planning.soc(plan.soc);
    addPlan(
      planning,
      plan,
      { period: `${planning.index}:${period.deadline}`, label, cheapImport: true, cost: plan.cost },
      { "plan.target_soc": battery.target_soc, "plan.kwh": plan.plannedKwh, "plan.cost": plan.cost ?? null },
    );
  }
};

/** Energy for the car before each deadline, in the cheapest slots. */
const planEvWindows: TriggerPlanner = (trigger, planning) => {
  const ev = trigger.ev;
  if (!ev) return;
  const label = `EV ${ev.kwh} kWh before ${ev.before}`;
  for (const period of periods(planning.input, ev.before, ev.after)) {
    const plan = planEv({
      ...period,
      rates: planning.rates,
      kwh: ev.kwh,
      chargeKw: ev.charge_kw ?? planning.input.rules.ev.charge_kw,
      split: ev.split,
    });
    addPlan(
      planning,
      plan,
      { period: `${planning.index}:${period.deadline}`, label, cheapImport: true, cost: plan.cost },
      { "plan.kwh": plan.plannedKwh, "plan.cost": plan.cost ?? null },
    );
  }
};

/** The optimiser's schedule: a window per run of charging, holding or exporting. */
const planOptimisedWindows: TriggerPlanner = (trigger, planning) => {
  const spec = trigger.optimise;
  if (!spec) return;
  const { input, rule } = planning;
  const capacityKwh = input.rules.battery.capacity_kwh ?? input.capacityKwh;
  if (input.soc === undefined || capacityKwh === undefined) {
    planning.note(`optimiser: the battery's ${input.soc === undefined ? "SoC" : "capacity"} is not known yet`);
    return;
  }
  const car = spec.car
    ? carNeed(spec.car, {
        now: input.now,
        timeZone: input.timeZone,
        evChargeKw: input.rules.ev.charge_kw,
        ...(input.car ? { car: input.car } : {}),
      })
    : undefined;
  const limited = car !== undefined || spec.import_limit_kw !== undefined;
  const plan = planOptimiseWindows({
    spec,
    now: input.now,
    to: input.to,
    importRates: planning.rates,
    exportRates: input.tariffs.export?.rates(input.now, input.to) ?? [],
    ...(input.house ? { house: input.house } : {}),
    ...(input.priceHistory ? { priceHistory: input.priceHistory } : {}),
    soc: input.soc,
    capacityKwh,
    chargeKw: input.rules.battery.charge_kw,
    chargeEfficiency: input.rules.battery.efficiency,
    ...(limited ? { car: { need: car?.need, importLimitKw: spec.import_limit_kw } } : {}),
  });
  for (const note of [...plan.notes, ...(car?.notes ?? [])]) planning.note(`optimiser: ${note}`);
  if (plan.car && !plan.car.met && car?.need)
    planning.note(`optimiser: car: ${car.need.needKwh.toFixed(1)} kWh cannot all be delivered before ${spec.car?.by}`);
  planning.soc(plan.soc);
  const { basis } = plan;
  if (basis)
    planning.explain(() =>
      explainSchedule(basis, { timeZone: input.timeZone, currency: input.rules.tariffs.currency }),
    );
  const windows = jointWindows(plan.windows, plan.basis?.starts ?? [], plan.car?.kwh ?? []);
  for (const window of windows) {
    const battery = window.battery;
    const what = [
      battery
        ? `${battery.mode === "charge" ? "grid charge" : battery.mode === "hold" ? "hold the battery" : "export"} to ${battery.targetSoc}%`
        : undefined,
      window.car ? `charge the car at ${car?.maxKw ?? input.rules.ev.charge_kw} kW` : undefined,
    ].filter((part) => part !== undefined);
    const actions = [
      ...(battery ? MODE_ACTIONS[battery.mode] : []),
      ...(window.car ? carActions(spec.car?.charger) : []),
    ];
    // The battery alone re-plans inside its window (window-replan.ts); a window with the car holds to its end.
    const optimised: ModeWindow | undefined =
      battery && !window.car ? { ...battery, start: window.start, end: window.end } : undefined;
    planning.window({
      start: window.start,
      end: window.end,
      rule: rule.name,
      trigger: planning.index,
      period: `${planning.index}:${window.start}:${battery?.mode ?? "eco"}${window.car ? ":car" : ""}`,
      label: optimised ? modeLabel(optimised) : `optimiser: ${what.join(", ")}`,
      averagePrice: undefined,
      cost: plan.expectedCost,
      cheapImport: battery?.mode === "charge" || window.car,
      plan: {
        "plan.mode": battery?.mode ?? "eco",
        ...(battery ? { "plan.target_soc": battery.targetSoc } : {}),
        "plan.cost": Math.round(plan.expectedCost * 100) / 100,
      },
      ...(rule.do.length === 0 ? { actions } : {}),
      ...(optimised ? { optimised } : {}),
    });
  }
};

export const TRIGGER_PLANNERS: { readonly [Kind in WindowTriggerKind]: TriggerPlanner } = {
  price: planPriceWindows,
  cheapest: planRankedWindows,
  most_expensive: planRankedWindows,
  battery: planBatteryWindows,
  ev: planEvWindows,
  optimise: planOptimisedWindows,
};

/** The windows of one plan, with its notes when it had to fall back. */
function addPlan(
  planning: TriggerPlanning,
  plan: WindowPlan,
  about: { period: string; label: string; cheapImport: boolean; cost: number | undefined },
  extra: TemplateContext = {},
): void {
  if (plan.fallback !== "none") for (const note of plan.notes) planning.note(`${about.label}: ${note}`);
  for (const window of plan.windows) {
    planning.window({
      ...window,
      ...about,
      rule: planning.rule.name,
      trigger: planning.index,
      averagePrice: plan.averagePrice,
      plan: { "window.average_price": plan.averagePrice ?? null, ...extra },
    });
  }
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
