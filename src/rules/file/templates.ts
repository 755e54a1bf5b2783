import { HOUR_MS, localClockText, localDateTimeText } from "../../time/index.js";

/**
 * `{{ name }}` templates in action values. The names are a fixed catalogue so that a typo is
 * refused when rules.yaml is loaded, not when the window opens at 01:00.
 */

export type TemplateValue = string | number | boolean | null;

/** Every name a template may use, with a typical value: used to check actions at load time. */
export const TEMPLATE_SAMPLES = {
  "window.start": "01:00",
  "window.end": "04:30",
  "window.start_iso": "2026-11-23T01:00:00.000Z",
  "window.end_iso": "2026-11-23T04:30:00.000Z",
  "window.hours": 3.5,
  "window.average_price": 0.12,
  "prices.current": 0.25,
  "prices.import": 0.25,
  "prices.export": 0.15,
  "prices.currency": "GBP",
  "plan.target_soc": 90,
  "plan.kwh": 6.2,
  "plan.cost": 0.74,
  "plan.mode": "charge",
  "state.battery_soc": 45,
  "state.pv_power": 1200,
  "state.grid_import": 300,
  "state.ev_plugged": true,
  "state.ev_status": "Preparing",
  "rule.name": "overnight-top-up",
  "now.time": "16:05",
  "now.date": "2026-11-22",
} as const satisfies Record<string, TemplateValue>;

export type TemplateName = keyof typeof TEMPLATE_SAMPLES;
export type TemplateContext = Readonly<Partial<Record<TemplateName, TemplateValue>>>;

export const TEMPLATE_NAMES = Object.keys(TEMPLATE_SAMPLES) as readonly TemplateName[];

/** What the template values are made of, when the engine acts and when `rules plan` previews. */
export interface TemplateInput {
  readonly rule: string;
  /** The window the actions act for (start = end for a cron or state trigger). Epoch ms. */
  readonly window: { readonly start: number; readonly end: number };
  /** The instant `now.*` describes: the engine's clock, or the window's start in a preview. */
  readonly now: number;
  readonly timeZone: string;
  /** The prices at the window's start. */
  readonly prices: { readonly import?: number; readonly export?: number; readonly currency: string };
  /** The live values known; a preview knows the battery's SoC only. */
  readonly state: {
    readonly batterySoc?: number;
    readonly pvPower?: number;
    readonly gridImport?: number;
    readonly evPlugged?: boolean;
    readonly evStatus?: string;
  };
  /** What the window's plan adds: window.average_price, plan.*. */
  readonly plan?: TemplateContext;
}

/** The values of every template name; names without a value are null. */
export function templateContext(input: TemplateInput): TemplateContext {
  const { window, prices, state, timeZone } = input;
  return {
    "window.start": localClockText(window.start, timeZone),
    "window.end": localClockText(window.end, timeZone),
    "window.start_iso": new Date(window.start).toISOString(),
    "window.end_iso": new Date(window.end).toISOString(),
    "window.hours": Math.round(((window.end - window.start) / HOUR_MS) * 100) / 100,
    "window.average_price": null,
    "prices.current": prices.import ?? null,
    "prices.import": prices.import ?? null,
    "prices.export": prices.export ?? null,
    "prices.currency": prices.currency,
    "plan.target_soc": null,
    "plan.kwh": null,
    "plan.cost": null,
    "plan.mode": null,
    "state.battery_soc": state.batterySoc ?? null,
    "state.pv_power": state.pvPower ?? null,
    "state.grid_import": state.gridImport ?? null,
    "state.ev_plugged": state.evPlugged ?? null,
    "state.ev_status": state.evStatus ?? null,
    "rule.name": input.rule,
    "now.time": localClockText(input.now, timeZone),
    "now.date": localDateTimeText(input.now, timeZone).slice(0, 10),
    ...input.plan,
  };
}

const TEMPLATE = /\{\{\s*([^}]*?)\s*\}\}/g;
const WHOLE = /^\{\{\s*([^}]*?)\s*\}\}$/;

function isTemplateName(name: string): name is TemplateName {
  return Object.hasOwn(TEMPLATE_SAMPLES, name);
}

/** The names a text's templates use, in order (known or not). */
export function templateNamesIn(text: string): string[] {
  return [...text.matchAll(TEMPLATE)].map((match) => match[1] ?? "");
}

/** What is wrong with the templates in a text; empty when fine. */
export function templateProblems(text: string): string[] {
  const problems: string[] = [];
  for (const match of text.matchAll(TEMPLATE)) {
    const name = match[1] ?? "";
    if (!isTemplateName(name)) problems.push(`unknown template "{{ ${name} }}"; known: ${TEMPLATE_NAMES.join(", ")}`);
  }
  const rest = text.replace(TEMPLATE, "");
  if (rest.includes("{{") || rest.includes("}}")) problems.push(`unbalanced "{{" or "}}" in "${text}"`);
  return problems;
}

/**
 * Fills the templates of a value, deeply. A string that is one template alone takes the value's
 * own type (so `percent_limit: "{{ plan.target_soc }}"` becomes a number); a template inside
 * other text is written as text. A name the context lacks fills as null (alone) or "" (in text).
 */
export function renderTemplates(value: unknown, context: TemplateContext): unknown {
  if (typeof value === "string") {
    const whole = WHOLE.exec(value);
    if (whole) {
      const name = whole[1] ?? "";
      return isTemplateName(name) ? (context[name] ?? null) : value;
    }
    return value.replace(TEMPLATE, (_all, name: string) =>
      isTemplateName(name) ? String(context[name] ?? "") : `{{ ${name} }}`,
    );
  }
  if (Array.isArray(value)) return value.map((item) => renderTemplates(item, context));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, renderTemplates(item, context)]));
  }
  return value;
}

/** Every string in a value with its path, for checking templates. */
export function stringsOf(value: unknown, path: readonly (string | number)[] = []): [(string | number)[], string][] {
  if (typeof value === "string") return [[[...path], value]];
  if (Array.isArray(value)) return value.flatMap((item, index) => stringsOf(item, [...path, index]));
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => stringsOf(item, [...path, key]));
  }
  return [];
}
