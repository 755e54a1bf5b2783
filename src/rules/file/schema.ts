import { z } from "zod";
import { solarForecastSchema } from "../forecasts/index.js";
import { type Action, actionSchema } from "./action-schema.js";
import { overlapProblems } from "./control-overlaps.js";
import { timeZone } from "./schema-common.js";
import { tariffsSchema } from "./tariff-schema.js";
import { stringsOf, TEMPLATE_NAMES, templateNamesIn } from "./templates.js";
import { conditionSchema, type Trigger, triggerKind, triggerSchema, WINDOW_TRIGGERS } from "./trigger-schema.js";

/** The house's battery, for the planner. Capacity left out: read from the inverter. */
export const batterySchema = z.strictObject({
  capacity_kwh: z.number().positive().optional(),
  charge_kw: z.number().positive().default(3),
  /** Round trip from the grid into the battery, 0 to 1. */
  efficiency: z.number().gt(0).max(1).default(0.9),
});

export const evSchema = z.strictObject({
  charge_kw: z.number().positive().default(7.2),
});

const ruleName = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9_-]{0,47}$/,
    "use lower-case letters, digits, - and _ (at most 48): it names the rule's Home Assistant switch and button",
  );

export const ruleSchema = z
  .strictObject({
    name: ruleName,
    enabled: z.boolean().default(true),
    /** When two rules act on the same control, the higher priority wins. */
    priority: z.number().int().default(0),
    /** Between rules of equal priority on the same control: the ones this rule wins over. */
    wins_over: z.array(ruleName).default([]),
    /** Log and publish what would be done; write nothing. */
    dry_run: z.boolean().default(false),
    when: z
      .union([triggerSchema, z.array(triggerSchema).min(1)])
      .transform((when) => (Array.isArray(when) ? when : [when])),
    if: conditionSchema.optional(),
    /** Left out for an optimise rule: the optimiser's own presets for each mode. */
    do: z.array(actionSchema).min(1).optional(),
    /** after_window: snapshot before the first change, put it back when the window ends. */
    restore: z.enum(["after_window", "never"]).optional(),
  })
  .superRefine((rule, ctx) => {
    if (rule.do === undefined && !asList(rule.when).some((trigger) => trigger.optimise !== undefined)) {
      ctx.addIssue({
        code: "custom",
        path: ["do"],
        message: "do: is needed (a list of actions); only an optimise rule may leave it out",
      });
    }
    windowTemplateProblems(rule.name, asList(rule.when), rule.do ?? [], ctx);
    if (rule.restore === "after_window" && !asList(rule.when).some(isWindowTrigger)) {
      ctx.addIssue({
        code: "custom",
        path: ["restore"],
        message: `after_window needs a trigger with a window (${WINDOW_TRIGGERS.join(", ")}); use never for cron and state triggers`,
      });
    }
  })
  .transform((rule) => ({
    ...rule,
    do: rule.do ?? [],
    // Window rules put things back by default: the project's promise. Others have no end to restore at.
    restore: rule.restore ?? (rule.when.some(isWindowTrigger) ? "after_window" : "never"),
  }));

export const rulesFileSchema = z
  .strictObject({
    /** Local time for hours, deadlines and zones; left out: the account's time zone, else Europe/London. */
    timezone: timeZone.optional(),
    /** Every rule dry-runs. */
    dry_run: z.boolean().default(false),
    battery: batterySchema.default(batterySchema.parse({})),
    ev: evSchema.default(evSchema.parse({})),
    tariffs: tariffsSchema.default(tariffsSchema.parse({})),
    /** A weather-based solar forecast for the optimiser; left out, solar is learned from the store's history. */
    solar_forecast: solarForecastSchema.optional(),
    rules: z.array(ruleSchema).default([]),
  })
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.rules.forEach((rule, index) => {
      if (seen.has(rule.name))
        ctx.addIssue({ code: "custom", path: ["rules", index, "name"], message: `"${rule.name}" is used twice` });
      seen.add(rule.name);
      asList(rule.when).forEach((trigger, at) => {
        const tariff = tariffOf(trigger);
        if (tariff && !file.tariffs[tariff]) {
          ctx.addIssue({
            code: "custom",
            path: ["rules", index, "when", at],
            message: `uses the ${tariff} tariff, but tariffs.${tariff} is not defined`,
          });
        }
      });
    });
    for (const problem of overlapProblems(file.rules)) {
      ctx.addIssue({ code: "custom", path: ["rules", problem.rule, problem.key], message: problem.message });
    }
  });

/**
 * `{{ window.* }}` has a value only when a window trigger fires: a cron or state trigger acts at
 * one instant, so its "window" starts and ends then and nothing is ever restored at its end.
 */
function windowTemplateProblems(
  name: string,
  when: readonly Trigger[],
  actions: readonly Action[],
  ctx: z.RefinementCtx,
): void {
  const windowless = when.find((trigger) => !isWindowTrigger(trigger));
  if (!windowless) return;
  actions.forEach((action, index) => {
    const strings = [
      ...stringsOf(action.with, ["with"]),
      ...stringsOf(action.value, ["value"]),
      ...stringsOf(action.notify && { title: action.notify.title, body: action.notify.body }, ["notify"]),
    ];
    for (const [path, text] of strings) {
      // An unknown name was reported already.
      const names = templateNamesIn(text).filter(
        (found) => found.startsWith("window.") && (TEMPLATE_NAMES as readonly string[]).includes(found),
      );
      if (names.length === 0) continue;
      ctx.addIssue({
        code: "custom",
        path: ["do", index, ...path],
        message: `rule "${name}" uses ${names.map((found) => `{{ ${found} }}`).join(", ")}, but its ${triggerKind(windowless)} trigger has no window (only ${WINDOW_TRIGGERS.join(", ")} triggers have one): use {{ now.time }} or {{ now.date }}, or a window trigger`,
      });
    }
  });
}

/** Checks of the whole also run when a part failed, before its transforms: read `when` either way. */
function asList(when: Trigger | readonly Trigger[]): readonly Trigger[] {
  return Array.isArray(when) ? when : [when as Trigger];
}

export function isWindowTrigger(trigger: Trigger): boolean {
  return (WINDOW_TRIGGERS as readonly string[]).includes(triggerKind(trigger));
}

/** The tariff whose prices a trigger reads, if any. */
export function tariffOf(trigger: Trigger): "import" | "export" | undefined {
  if (trigger.price) return trigger.price.tariff;
  if (trigger.cheapest) return trigger.cheapest.tariff;
  if (trigger.most_expensive) return trigger.most_expensive.tariff;
  if (trigger.battery || trigger.ev || trigger.optimise) return "import";
  return undefined;
}

export type RulesFile = z.infer<typeof rulesFileSchema>;
export type RulesFileInput = z.input<typeof rulesFileSchema>;

/** The zone a rules file's hours and deadlines are in: its own `timezone`, else the account's, else Europe/London. */
export function rulesTimeZone(rules: RulesFile, accountTimeZone: string | undefined): string {
  return rules.timezone ?? accountTimeZone ?? "Europe/London";
}
export type Rule = z.infer<typeof ruleSchema>;
export type { ActionKind } from "./action-schema.js";
export { actionKind, chargerCommand } from "./action-schema.js";
export type { AgileTariffConfig, TariffConfig, TariffsConfig, Zone } from "./tariff-schema.js";
export type { Condition, TriggerKind } from "./trigger-schema.js";
export { triggerKind } from "./trigger-schema.js";
export type { Action, Trigger };
