import { actionKind } from "./action-schema.js";
import { cronTimes } from "./cron-times.js";
import { HOUR_MS, localClockText, localDateTimeText, nextLocalTime, SLOT_MS } from "./local-time.js";
import { type Interval, planBattery, planEv, planWindow, type WindowPlan } from "./planner.js";
import type { Action, Rule, RulesFile, Trigger } from "./schema.js";
import { tariffOf, triggerKind } from "./schema.js";
import type { Tariff } from "./tariffs/index.js";
import { renderTemplates, type TemplateContext } from "./templates.js";

/** What `rules plan` needs to know about the house now. */
export interface PreviewState {
  readonly socPercent: number;
  readonly capacityKwh: number;
}

export interface PreviewInput {
  readonly rules: RulesFile;
  readonly tariffs: { readonly import?: Tariff; readonly export?: Tariff };
  readonly timeZone: string;
  readonly now: number;
  readonly hours: number;
  readonly state: PreviewState;
}

export interface PreviewSlot {
  readonly start: number;
  readonly import: number | undefined;
  readonly export: number | undefined;
  readonly estimated: boolean;
}

export interface PreviewWindow extends Interval {
  /** e.g. "cheapest 3 h before 07:00". */
  readonly trigger: string;
  /** The actions as they would be sent, templates filled. */
  readonly actions: readonly string[];
  readonly cost: number | undefined;
}

export interface RulePreview {
  readonly name: string;
  readonly enabled: boolean;
  readonly dryRun: boolean;
  readonly windows: readonly PreviewWindow[];
  readonly notes: readonly string[];
}

export interface Preview {
  readonly from: number;
  readonly to: number;
  readonly slots: readonly PreviewSlot[];
  readonly rules: readonly RulePreview[];
  /** Expected battery SoC from the battery plans; flat where nothing charges (house use is not modelled). */
  readonly soc: readonly { readonly at: number; readonly soc: number }[];
}

/** The next hours of the rules: prices, planned windows and their actions, and the battery SoC. */
export function previewRules(input: PreviewInput): Preview {
  const from = input.now;
  const to = input.now + input.hours * HOUR_MS;
  const imports = input.tariffs.import?.rates(from, to) ?? [];
  const exports = input.tariffs.export?.rates(from, to) ?? [];
  const slots: PreviewSlot[] = [];
  for (let start = Math.floor(from / SLOT_MS) * SLOT_MS; start < to; start += SLOT_MS) {
    const inRate = imports.find((rate) => rate.start === start);
    const exRate = exports.find((rate) => rate.start === start);
    slots.push({
      start,
      import: inRate?.price,
      export: exRate?.price,
      estimated: (inRate?.estimated ?? false) || (exRate?.estimated ?? false),
    });
  }
  const soc: { at: number; soc: number }[] = [];
  const rules = input.rules.rules.map((rule) => previewRule(rule, input, to, soc));
  if (soc.length === 0) soc.push({ at: from, soc: input.state.socPercent });
  soc.sort((a, b) => a.at - b.at);
  return { from, to, slots, rules, soc };
}

function previewRule(rule: Rule, input: PreviewInput, to: number, soc: { at: number; soc: number }[]): RulePreview {
  const windows: PreviewWindow[] = [];
  const notes: string[] = [];
  for (const trigger of rule.when) {
    const tariff = tariffOf(trigger);
    const rates = tariff ? (input.tariffs[tariff]?.rates(input.now, to) ?? []) : [];
    const addPlan = (plan: WindowPlan, label: string, cost: number | undefined, extra: TemplateContext = {}) => {
      for (const note of plan.notes) if (plan.fallback !== "none") notes.push(`${label}: ${note}`);
      for (const window of plan.windows) windows.push(windowOf(rule, input, window, label, cost, plan, extra));
    };
    const kind = triggerKind(trigger);
    if (trigger.cron !== undefined) {
      for (const at of cronTimes(trigger.cron, input.now, to, input.timeZone)) {
        windows.push(windowOf(rule, input, { start: at, end: at }, `cron ${trigger.cron}`, undefined));
      }
    } else if (trigger.price) {
      const { below, above } = trigger.price;
      const matching = rates.filter(
        (rate) => (below === undefined || rate.price < below) && (above === undefined || rate.price > above),
      );
      const label = `${trigger.price.tariff} price${below !== undefined ? ` below ${below}` : ""}${above !== undefined ? ` above ${above}` : ""}`;
      for (const window of mergeRates(matching)) windows.push(windowOf(rule, input, window, label, undefined));
    } else if (trigger.cheapest || trigger.most_expensive) {
      const spec = trigger.cheapest ?? trigger.most_expensive;
      if (!spec) continue;
      const label = `${trigger.cheapest ? "cheapest" : "most expensive"} ${spec.hours} h before ${spec.before}`;
      for (const period of periods(input, to, spec.before, spec.after)) {
        const plan = planWindow({
          ...period,
          rates,
          durationMs: spec.hours * HOUR_MS,
          split: spec.split,
          prefer: trigger.cheapest ? "cheapest" : "dearest",
        });
        addPlan(plan, label, undefined);
      }
    } else if (trigger.battery) {
      const spec = trigger.battery;
      const label = `battery to ${spec.target_soc}% before ${spec.before}`;
      for (const period of periods(input, to, spec.before, spec.after)) {
        const plan = planBattery({
          ...period,
          rates,
          capacityKwh: input.rules.battery.capacity_kwh ?? input.state.capacityKwh,
          soc: input.state.socPercent,
          targetSoc: spec.target_soc,
          efficiency: input.rules.battery.efficiency,
          chargeKw: spec.charge_kw ?? input.rules.battery.charge_kw,
          split: spec.split,
        });
        if (rule.enabled) soc.push(...plan.soc);
        addPlan(plan, label, plan.cost, { "plan.target_soc": spec.target_soc, "plan.kwh": plan.plannedKwh });
      }
    } else if (trigger.ev) {
      const spec = trigger.ev;
      const label = `EV ${spec.kwh} kWh before ${spec.before}`;
      for (const period of periods(input, to, spec.before, spec.after)) {
        const plan = planEv({
          ...period,
          rates,
          kwh: spec.kwh,
          chargeKw: spec.charge_kw ?? input.rules.ev.charge_kw,
          split: spec.split,
        });
        addPlan(plan, label, plan.cost, { "plan.kwh": plan.plannedKwh });
      }
    } else {
      notes.push(`when ${kind}: ${JSON.stringify(stateValue(trigger))} fires on live state; not predicted`);
    }
  }
  windows.sort((a, b) => a.start - b.start);
  return { name: rule.name, enabled: rule.enabled, dryRun: rule.dry_run || input.rules.dry_run, windows, notes };
}

function stateValue(trigger: Trigger): unknown {
  return trigger[triggerKind(trigger)];
}

/**
 * The planning periods in the horizon: one per deadline, each from the later of now, the previous
 * deadline and the `after` time before it. The battery SoC at each start is taken as today's.
 */
function periods(input: PreviewInput, to: number, before: string, after: string | undefined) {
  const found: { now: number; deadline: number }[] = [];
  let previous = input.now;
  for (let deadline = nextLocalTime(input.now, before, input.timeZone); deadline <= to; ) {
    const opens = after ? nextLocalTime(deadline - 24 * HOUR_MS, after, input.timeZone) : previous;
    found.push({ now: Math.max(previous, opens >= deadline ? previous : opens), deadline });
    previous = deadline;
    deadline = nextLocalTime(deadline, before, input.timeZone);
  }
  return found;
}

function mergeRates(rates: readonly Interval[]): Interval[] {
  const windows: Interval[] = [];
  for (const rate of rates) {
    const last = windows[windows.length - 1];
    if (last && last.end === rate.start) windows[windows.length - 1] = { start: last.start, end: rate.end };
    else windows.push({ start: rate.start, end: rate.end });
  }
  return windows;
}

function windowOf(
  rule: Rule,
  input: PreviewInput,
  window: Interval,
  trigger: string,
  cost: number | undefined,
  plan?: WindowPlan,
  extra: TemplateContext = {},
): PreviewWindow {
  const context: TemplateContext = {
    "window.start": localClockText(window.start, input.timeZone),
    "window.end": localClockText(window.end, input.timeZone),
    "window.start_iso": new Date(window.start).toISOString(),
    "window.end_iso": new Date(window.end).toISOString(),
    "window.hours": Math.round(((window.end - window.start) / HOUR_MS) * 100) / 100,
    "window.average_price": plan?.averagePrice ?? null,
    "prices.current": input.tariffs.import?.priceAt(window.start) ?? null,
    "prices.import": input.tariffs.import?.priceAt(window.start) ?? null,
    "prices.export": input.tariffs.export?.priceAt(window.start) ?? null,
    "prices.currency": input.rules.tariffs.currency,
    "plan.cost": cost ?? null,
    "state.battery_soc": input.state.socPercent,
    "rule.name": rule.name,
    "now.time": localClockText(window.start, input.timeZone),
    "now.date": localDateTimeText(window.start, input.timeZone).slice(0, 10),
    ...extra,
  };
  return { ...window, trigger, cost, actions: rule.do.map((action) => describeAction(action, context)) };
}

/** One line per action, as the engine would send it. */
export function describeAction(action: Action, context: TemplateContext): string {
  const kind = actionKind(action);
  const json = (value: unknown) => JSON.stringify(renderTemplates(value ?? {}, context));
  switch (kind) {
    case "preset":
      return `preset ${action.preset} ${json(action.with)}${action.inverter ? ` on ${action.inverter}` : ""}`;
    case "setting":
      return `setting ${action.setting} = ${json(action.value)}${action.inverter ? ` on ${action.inverter}` : ""}`;
    case "charger":
      return `charger ${action.charger} ${json(action.with)}${action.uuid ? ` on ${action.uuid}` : ""}`;
    case "notify": {
      const filled = renderTemplates({ title: action.notify?.title, body: action.notify?.body }, context) as {
        title: string;
      };
      return `notify "${filled.title}"`;
    }
    case "snapshot":
      return `snapshot ${action.snapshot}${action.name ? ` ${action.name}` : ""}`;
  }
}
