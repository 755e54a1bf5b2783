import { z } from "zod";
import {
  CHARGER_COMMANDS,
  type ChargerCommandId,
  isChargerCommandId,
  PRESETS,
  type PresetIdentifier,
  reservedSnapshotName,
} from "../../vocabulary/index.js";
import { exactlyOneKey } from "./schema-common.js";
import { renderTemplates, stringsOf, TEMPLATE_SAMPLES, templateProblems } from "./templates.js";

const hourMinute = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "expected a time as HH:MM");
const slot = z.strictObject({
  start_time: hourMinute.optional(),
  end_time: hourMinute.optional(),
  percent_limit: z.number().min(0).max(100).optional(),
});
const slots = z.union([z.array(slot).min(1), z.record(z.string().regex(/^[1-9]\d*$/, "expected a slot number"), slot)]);
const enabledOnly = z.strictObject({ enabled: z.boolean() });
const timed = { enabled: z.boolean().optional(), slots: slots.optional() };
/** Fields vary by inverter: the control gate checks them against the inverter's own preset list. */
const perInverter = z.record(z.string(), z.unknown());

/** The fields of each preset of the reference. */
const PRESET_FIELDS = {
  "eco-mode": enabledOnly,
  "timed-charge": z.strictObject(timed),
  "timed-discharge": z.strictObject({ ...timed, max_power_watts: z.number().positive().optional() }),
  "timed-export": z.strictObject({ ...timed, max_power_watts: z.number().positive().optional() }),
  "battery-operating-range": perInverter,
  "reset-to-defaults": z.strictObject({}),
  "winter-battery-conditioning": enabledOnly,
  "plant-ems-enable-control": enabledOnly,
  "grid-settings": perInverter,
  "parallel-settings": enabledOnly,
  "generator-mode": z.strictObject({
    enabled: z.boolean().optional(),
    start_soc: z.number().min(0).max(100).optional(),
    stop_soc: z.number().min(0).max(100).optional(),
    charge_power_percent: z.number().min(0).max(100).optional(),
  }),
  "smart-load": perInverter,
  "pause-battery": z.strictObject({
    /** 0 Not Paused, 1 Pause Charge, 2 Pause Discharge, 3 Pause Charge and Discharge. */
    mode: z.number().int().min(0).max(3),
    start_time: hourMinute.optional(),
    end_time: hourMinute.optional(),
  }),
} as const satisfies Record<PresetIdentifier, z.ZodType>;

const PRESET_IDS = Object.keys(PRESETS) as [PresetIdentifier, ...PresetIdentifier[]];
const ACTION_KINDS = ["preset", "setting", "charger", "notify", "snapshot"] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

const notify = z.strictObject({
  title: z.string(),
  body: z.string(),
  platforms: z
    .array(z.enum(["persist", "push"]))
    .min(1)
    .default(["persist", "push"]),
  icon: z
    .string()
    .regex(/^mdi-[a-z0-9-]+$/, "expected a material design icon name starting with mdi-, e.g. mdi-flash")
    .default("mdi-flash"),
});

/** Where each companion key belongs. */
const COMPANIONS: Readonly<Record<string, readonly ActionKind[]>> = {
  with: ["preset", "charger"],
  value: ["setting"],
  inverter: ["preset", "setting", "snapshot"],
  uuid: ["charger"],
  name: ["snapshot"],
};

/** Reports schema problems of templated fields, found by filling the templates with typical values. */
function checkRendered(
  ctx: z.RefinementCtx,
  schema: z.ZodType,
  value: unknown,
  path: readonly (string | number)[],
  reported: ReadonlySet<string>,
) {
  const result = schema.safeParse(renderTemplates(value, TEMPLATE_SAMPLES));
  if (result.success) return;
  for (const issue of result.error.issues) {
    // A bad template name was reported already; its unfilled text would only fail again.
    if (reported.has([...path, ...issue.path].join("."))) continue;
    const message =
      issue.code === "unrecognized_keys"
        ? `unknown field ${issue.keys.map((k) => `"${k}"`).join(", ")}`
        : issue.message;
    ctx.addIssue({ code: "custom", path: [...path, ...(issue.path as (string | number)[])], message });
  }
}

export const actionSchema = z
  .strictObject({
    preset: z.enum(PRESET_IDS).optional(),
    setting: z.union([z.number().int().min(0), z.string().min(1)]).optional(),
    charger: z.string().optional(),
    notify: notify.optional(),
    snapshot: z.enum(["take", "restore"]).optional(),
    /** The preset's fields, or the charger command's request data. */
    with: z.record(z.string(), z.unknown()).optional(),
    /** The setting's new value. */
    value: z.union([z.string(), z.number(), z.boolean()]).optional(),
    /** Inverter serial; left out: the account's only (or first) inverter. */
    inverter: z.string().min(1).optional(),
    /** Charger uuid; left out: the account's only (or first) charger. */
    uuid: z.string().min(1).optional(),
    /** Snapshot name, at most 32 characters; left out: one per rule. */
    name: z
      .string()
      .min(1)
      .max(32)
      .refine((name) => reservedSnapshotName(name) === undefined, {
        error: (issue) => reservedSnapshotName(String(issue.input)) ?? "a reserved snapshot name",
      })
      .optional(),
  })
  .superRefine((action, ctx) => {
    const one = exactlyOneKey(action, ACTION_KINDS, "an action (do:)");
    if ("problem" in one) {
      ctx.addIssue({ code: "custom", message: one.problem });
      return;
    }
    const kind = one.kind as ActionKind;
    for (const [key, kinds] of Object.entries(COMPANIONS)) {
      if (action[key as keyof typeof action] !== undefined && !kinds.includes(kind)) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `does not go with ${kind}: (it belongs to ${kinds.join(" or ")})`,
        });
      }
    }
    const reported = new Set<string>();
    for (const [path, text] of [...stringsOf(action.with, ["with"]), ...stringsOf(action.value, ["value"])]) {
      for (const message of templateProblems(text)) {
        ctx.addIssue({ code: "custom", path, message });
        reported.add(path.join("."));
      }
    }
    if (action.notify) {
      for (const [path, text] of stringsOf({ title: action.notify.title, body: action.notify.body }, ["notify"])) {
        for (const message of templateProblems(text)) ctx.addIssue({ code: "custom", path, message });
      }
    }
    if (action.preset !== undefined) {
      checkRendered(ctx, PRESET_FIELDS[action.preset], action.with ?? {}, ["with"], reported);
    }
    if (action.setting !== undefined && action.value === undefined) {
      ctx.addIssue({ code: "custom", message: "a setting action needs value:" });
    }
    if (action.charger !== undefined) {
      if (!isChargerCommandId(action.charger)) {
        ctx.addIssue({
          code: "custom",
          path: ["charger"],
          message: `"${action.charger}" is not an EV charger command; known: ${Object.keys(CHARGER_COMMANDS).join(", ")}`,
        });
      } else {
        checkRendered(ctx, CHARGER_COMMANDS[action.charger], action.with ?? {}, ["with"], reported);
      }
    }
    if (action.notify) {
      const rendered = renderTemplates(action.notify, TEMPLATE_SAMPLES) as { title: string; body: string };
      if (rendered.title.length < 10)
        ctx.addIssue({
          code: "custom",
          path: ["notify", "title"],
          message: "the service wants at least 10 characters",
        });
      if (rendered.body.length < 20)
        ctx.addIssue({ code: "custom", path: ["notify", "body"], message: "the service wants at least 20 characters" });
    }
  });

export type Action = z.infer<typeof actionSchema>;

/** Which kind of action this is (the schema made sure there is exactly one). */
export function actionKind(action: Action): ActionKind {
  return ACTION_KINDS.find((kind) => action[kind] !== undefined) ?? "notify";
}

/** The charger command of an action, typed. */
export function chargerCommand(action: Action): ChargerCommandId | undefined {
  return action.charger !== undefined && isChargerCommandId(action.charger) ? action.charger : undefined;
}
