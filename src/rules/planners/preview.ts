import type { ExplainedSlot } from "../../optimiser/index.js";
import type { CarState } from "../../rules-runtime/index.js";
import { HOUR_MS, SLOT_MS } from "../../time/index.js";
import type { Action } from "../file/action-schema.js";
import { describeAction } from "../file/action-text.js";
import { cronTimes } from "../file/cron-times.js";
import type { Rule, RulesFile, Trigger } from "../file/schema.js";
import { isWindowTrigger, triggerKind } from "../file/schema.js";
import type { TemplateContext } from "../file/templates.js";
import type { Tariff } from "../tariffs/index.js";
import { carInputsOf } from "./car-windows.js";
import { type BatteryMode, batteryModeOf, type ExpectedSoc, expectedSoc, type ModeSpan } from "./expected-soc.js";
import type { HouseForecast, PriceHistory } from "./optimise-windows.js";
import type { Interval } from "./planner.js";
import { planRuleWindows } from "./rule-windows.js";
import { windowActions, windowContext, windowWords } from "./window-words.js";

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
  /** The house's forecast consumption and solar; left out, the house's own use is not modelled. */
  readonly house?: HouseForecast;
  /** The inverter an action without `inverter` goes to, for the actions in words. */
  readonly defaultInverter?: string;
  /** Prices published before now, for the optimiser's forecast beyond the published ones (priceHistory()); left out, none. */
  readonly priceHistory?: PriceHistory;
  /** The car an optimise rule's `car:` plans; left out, its plug state is unknown and no car is planned. */
  readonly car?: PreviewCar;
}

/** The car as the running daemon knows it, or as told by hand (`rules plan --car-...`). */
export interface PreviewCar {
  readonly state: CarState;
  /** The kWh still needed by the deadline, told by hand: replaces the target less what was delivered. */
  readonly needKwh?: number;
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
  /** The same actions in words ("Timed charge to 95% 01:00–04:00 on inverter SD2024G001"). */
  readonly readable: readonly string[];
  readonly cost: number | undefined;
  /** What the window does to the battery, when its actions say. */
  readonly battery?: BatteryMode;
}

export interface RulePreview {
  readonly name: string;
  readonly enabled: boolean;
  readonly dryRun: boolean;
  readonly windows: readonly PreviewWindow[];
  readonly notes: readonly string[];
  /** The optimiser's half-hours with their reasons; empty for rules without an optimise trigger. */
  readonly explained: readonly ExplainedSlot[];
}

export interface Preview {
  readonly from: number;
  readonly to: number;
  readonly slots: readonly PreviewSlot[];
  readonly rules: readonly RulePreview[];
  /** The SoC points the battery plans aim at (their targets only). */
  readonly soc: readonly { readonly at: number; readonly soc: number }[];
  /** The battery half-hour by half-hour under every enabled rule's windows and the house's forecast. */
  readonly expected: ExpectedSoc;
}

/** How far ahead a plan looks: the engine's horizon, and `rules plan`'s and the Plan page's. */
export const PLAN_HOURS = 48;

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
  const priority = new Map(input.rules.rules.map((rule) => [rule.name, rule.priority]));
  const spans: ModeSpan[] = rules
    .filter((rule) => rule.enabled)
    .sort((a, b) => (priority.get(b.name) ?? 0) - (priority.get(a.name) ?? 0))
    .flatMap((rule) => rule.windows.flatMap((window) => (window.battery ? [{ ...window, ...window.battery }] : [])));
  const expected = expectedSoc({
    from,
    to,
    socPercent: input.state.socPercent,
    capacityKwh: input.state.capacityKwh,
    battery: input.rules.battery,
    spans,
    house: input.house,
    importAt: (at) => slots.find((slot) => slot.start === at)?.import,
    exportAt: (at) => slots.find((slot) => slot.start === at)?.export,
  });
  return { from, to, slots, rules, soc, expected };
}

function previewRule(rule: Rule, input: PreviewInput, to: number, soc: { at: number; soc: number }[]): RulePreview {
  // The tariff triggers' windows as the engine plans them; the SoC each period starts from is taken as today's.
  const planned = planRuleWindows(rule, {
    rules: input.rules,
    tariffs: input.tariffs,
    timeZone: input.timeZone,
    now: input.now,
    to,
    soc: input.state.socPercent,
    capacityKwh: input.state.capacityKwh,
    ...(input.house ? { house: input.house } : {}),
    ...(input.priceHistory ? { priceHistory: input.priceHistory } : {}),
    ...(input.car ? { car: carInputsOf(input.car.state, rule.name, input.car.needKwh) } : {}),
  });
  if (rule.enabled) soc.push(...planned.soc);
  const windows: { trigger: number; window: PreviewWindow }[] = planned.windows.map((window) => ({
    trigger: window.trigger,
    window: windowOf(rule, input, window, window.label, window.cost, window.plan, window.actions),
  }));
  const notes = [...planned.notes];
  rule.when.forEach((trigger, index) => {
    if (trigger.cron !== undefined) {
      for (const at of cronTimes(trigger.cron, input.now, to, input.timeZone)) {
        windows.push({ trigger: index, window: windowOf(rule, input, { start: at, end: at }, `cron ${trigger.cron}`) });
      }
    } else if (!isWindowTrigger(trigger)) {
      notes.push(
        `when ${triggerKind(trigger)}: ${JSON.stringify(stateValue(trigger))} fires on live state; not predicted`,
      );
    }
  });
  windows.sort((a, b) => a.window.start - b.window.start || a.trigger - b.trigger);
  return {
    name: rule.name,
    enabled: rule.enabled,
    dryRun: rule.dry_run || input.rules.dry_run,
    windows: windows.map((found) => found.window),
    notes,
    explained: planned.explained(),
  };
}

function stateValue(trigger: Trigger): unknown {
  return trigger[triggerKind(trigger)];
}

function windowOf(
  rule: Rule,
  input: PreviewInput,
  window: Interval,
  trigger: string,
  cost?: number,
  plan: TemplateContext = {},
  own?: readonly Action[],
): PreviewWindow {
  const worded = { ...window, cost, plan, ...(own ? { actions: own } : {}) };
  const words = {
    rules: input.rules,
    tariffs: input.tariffs,
    timeZone: input.timeZone,
    batterySoc: input.state.socPercent,
    defaultInverter: input.defaultInverter,
  };
  const context = windowContext(rule, worded, words);
  const actions = windowActions(rule, worded);
  const battery = batteryModeOf(actions, context);
  return {
    start: window.start,
    end: window.end,
    trigger,
    cost,
    actions: actions.map((action) => describeAction(action, context)),
    readable: windowWords(rule, worded, words),
    ...(battery ? { battery } : {}),
  };
}
