import type { Action } from "../file/action-schema.js";
import { actionWords } from "../file/action-words.js";
import type { Rule, RulesFile } from "../file/schema.js";
import { type TemplateContext, templateContext } from "../file/templates.js";
import type { Tariff } from "../tariffs/index.js";
import type { Interval } from "./planner.js";

/** What a window's templates are filled from, beyond the window itself. */
export interface WindowWordsInput {
  readonly rules: Pick<RulesFile, "tariffs">;
  readonly tariffs: { readonly import?: Tariff; readonly export?: Tariff };
  readonly timeZone: string;
  /** The battery's SoC, % (state.battery_soc); undefined while not known. */
  readonly batterySoc: number | undefined;
  /** The inverter an action without `inverter` goes to, for the words. */
  readonly defaultInverter?: string | undefined;
}

/** A planned window as far as its words need it: when, what its plan cost, its plan values, its own actions. */
export interface WordedWindow extends Interval {
  readonly cost?: number | undefined;
  readonly plan?: TemplateContext;
  /** What the window writes when its rule gives no do: of its own (the optimiser's modes). */
  readonly actions?: readonly Action[];
}

/** The templates' values in a rule's window: the window, the prices at its start, the battery, the plan. */
export function windowContext(rule: Rule, window: WordedWindow, input: WindowWordsInput): TemplateContext {
  return templateContext({
    rule: rule.name,
    window,
    now: window.start,
    timeZone: input.timeZone,
    prices: {
      ...optional("import", input.tariffs.import?.priceAt(window.start)),
      ...optional("export", input.tariffs.export?.priceAt(window.start)),
      currency: input.rules.tariffs.currency,
    },
    state: optional("batterySoc", input.batterySoc),
    plan: { ...optional("plan.cost", window.cost), ...window.plan },
  });
}

/** The actions a window sends: the rule's do:, else the window's own. */
export function windowActions(rule: Rule, window: WordedWindow): readonly Action[] {
  return window.actions && rule.do.length === 0 ? window.actions : rule.do;
}

/**
 * A window's actions in words ("Timed charge to 95% 01:00–04:00 on inverter SD2024G001"): the
 * Plan page's and `rules plan`'s, and the running rules' next window on the Now page.
 */
export function windowWords(rule: Rule, window: WordedWindow, input: WindowWordsInput): string[] {
  const context = windowContext(rule, window, input);
  return windowActions(rule, window).map((action) =>
    actionWords(action, context, { defaultInverter: input.defaultInverter }),
  );
}

function optional<K extends string, V>(key: K, value: V | undefined): { [key in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [key in K]?: V });
}
