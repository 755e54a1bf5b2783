import { validateDetailed } from "node-cron";
import { z } from "zod";
import { clock, days, exactlyOneKey, hoursRange, price } from "./schema-common.js";

const tariffName = z.enum(["import", "export"]);
const percent = z.number().min(0).max(100);
/** Watts. */
const watts = z.number();

const cron = z.string().superRefine((expression, ctx) => {
  const result = validateDetailed(expression);
  if (result.valid) return;
  const detail = result.errors.map((error) => error.message).join("; ");
  ctx.addIssue({
    code: "custom",
    message: `"${expression}" is not a cron expression (${detail || "wrong number of fields"}); e.g. "30 7 * * 1-5" for 07:30 on weekdays`,
  });
});

const priceWindow = z
  .strictObject({ below: price.optional(), above: price.optional(), tariff: tariffName.default("import") })
  .refine((value) => value.below !== undefined || value.above !== undefined, {
    message: "price needs below: or above: (or both)",
  });

/** The N cheapest (or dearest) hours before a local deadline, from `after` (default: now). */
const hoursWindow = (tariff: "import" | "export") =>
  z.strictObject({
    hours: z.number().positive().max(24),
    before: clock,
    after: clock.optional(),
    tariff: tariffName.default(tariff),
    /** false: one continuous window; true: the best half-hours wherever they fall. */
    split: z.boolean().default(false),
  });

/** Planner: reach a battery SoC by a deadline in the cheapest import slots. */
const batteryPlan = z.strictObject({
  target_soc: z.number().min(1).max(100),
  before: clock,
  after: clock.optional(),
  split: z.boolean().default(true),
  /** Overrides battery.charge_kw for this rule. */
  charge_kw: z.number().positive().optional(),
});

/** Planner: deliver kWh to the car by a deadline in the cheapest import slots. */
const evPlan = z.strictObject({
  kwh: z.number().positive().max(250),
  before: clock,
  after: clock.optional(),
  split: z.boolean().default(false),
  /** Overrides ev.charge_kw for this rule. */
  charge_kw: z.number().positive().optional(),
});

/** An MQTT topic the daemon subscribes to (a Home Assistant entity published there); its payload is a number. */
const topic = z
  .string()
  .min(1)
  .refine((text) => !/[#+]/.test(text), { message: "a topic without wildcards (# or +)" });

/**
 * The car in the optimiser's plan: what it needs by when, from the rule or from Home Assistant.
 * It is planned only while the charger says a car is plugged in.
 */
const optimiseCar = z
  .strictObject({
    /** The charger's uuid; left out: the first charger (the one the rules watch). */
    charger: z.string().min(1).optional(),
    /** The charger's power while it charges, kW; left out: ev.charge_kw. */
    max_kw: z.number().positive().max(50).optional(),
    /** The local time the car must have what it needs by, e.g. "07:30". */
    by: clock,
    /** Energy to deliver by then, kWh (counted from the previous `by`). */
    kwh: z.number().positive().max(250).optional(),
    /** Or a state of charge to reach, %, with the car's battery size and its SoC from soc_topic. */
    soc: percent.optional(),
    battery_kwh: z.number().positive().max(250).optional(),
    /** A topic whose number replaces kwh (or soc): a target set in Home Assistant. */
    target_topic: topic.optional(),
    /** A topic carrying the car's own SoC (%), e.g. from its Home Assistant integration; needed with soc. */
    soc_topic: topic.optional(),
  })
  .superRefine((car, ctx) => {
    if (car.kwh !== undefined && car.soc !== undefined)
      ctx.addIssue({ code: "custom", message: "give kwh: or soc:, not both" });
    if (car.soc === undefined && car.kwh === undefined && car.target_topic === undefined)
      ctx.addIssue({ code: "custom", message: "the car needs a target: kwh:, soc: or target_topic:" });
    if (car.soc !== undefined && (car.battery_kwh === undefined || car.soc_topic === undefined))
      ctx.addIssue({
        code: "custom",
        message:
          "a soc: target needs battery_kwh: and soc_topic: (the car's own SoC, e.g. from its Home Assistant integration)",
      });
  });

/**
 * The optimiser: the least-cost schedule of grid charging, holding, self-consumption and export
 * over the next hours, from the prices and the house's forecast consumption and solar, planned
 * again every half-hour (model-predictive control). Its windows are the runs of one mode.
 */
const optimisePlan = z
  .strictObject({
    /** How far ahead it plans, at most as far as prices are known. */
    horizon_hours: z.number().min(1).max(48).default(48),
    /** The SoC (%) it never plans below. */
    reserve_soc: percent.default(4),
    /** Overrides battery.charge_kw as the most the battery discharges. */
    discharge_kw: z.number().positive().optional(),
    /** Stored energy to AC out, 0 to 1 (battery.efficiency is grid to battery). */
    discharge_efficiency: z.number().gt(0).max(1).default(0.95),
    /**
     * The most the site may export (kW: a G98 limit of 3.68, the inverter's export limit): the plan
     * knows that a forced export on top of solar beyond it is curtailed, not paid; left out, no limit.
     */
    export_limit_kw: z.number().positive().max(200).optional(),
    /** Cost of writing a new mode to the inverter, per change, in the tariffs' currency. */
    change_cost: z.number().min(0).default(0.002),
    /** The car, planned with the battery; left out, no car. */
    car: optimiseCar.optional(),
    /**
     * The most the site may import, kW (a supply fuse, a gateway's limit), shared by the house, the
     * battery's grid charging and the car; left out, no limit.
     */
    import_limit_kw: z.number().positive().max(200).optional(),
    /** kW the house may draw above its forecast half-hour mean (a kettle, an oven), kept free under import_limit_kw; left out, 2. */
    house_margin_kw: z.number().min(0).max(50).optional(),
    /**
     * While a window of the rule charges the car, cut the car's current (or stop it) when the
     * measured import goes over import_limit_kw (see import-guard.ts); on by default with a car
     * and a limit, false turns it off.
     */
    import_guard: z.boolean().optional(),
  })
  .superRefine((plan, ctx) => {
    if (plan.import_guard === true && (plan.import_limit_kw === undefined || plan.car === undefined))
      ctx.addIssue({
        code: "custom",
        path: ["import_guard"],
        message: `import_guard watches the measured import while the car charges: it needs ${[
          plan.import_limit_kw === undefined ? "import_limit_kw:" : undefined,
          plan.car === undefined ? "car:" : undefined,
        ]
          .filter((key) => key !== undefined)
          .join(" and ")} in the same optimise trigger`,
      });
  });

/** Live state: the same keys serve as triggers (fire when it becomes true) and as conditions. */
const stateShape = {
  battery_soc_below: percent.optional(),
  battery_soc_above: percent.optional(),
  pv_power_above: watts.optional(),
  pv_power_below: watts.optional(),
  grid_import_above: watts.optional(),
  grid_import_below: watts.optional(),
  ev_plugged: z.boolean().optional(),
  ev_status: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
};
export const STATE_KEYS = Object.keys(stateShape) as readonly (keyof typeof stateShape)[];

export const WINDOW_TRIGGERS = ["price", "cheapest", "most_expensive", "battery", "ev", "optimise"] as const;
export const TRIGGER_KINDS = ["cron", ...WINDOW_TRIGGERS, ...STATE_KEYS] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

export const triggerSchema = z
  .strictObject({
    cron: cron.optional(),
    price: priceWindow.optional(),
    cheapest: hoursWindow("import").optional(),
    most_expensive: hoursWindow("export").optional(),
    battery: batteryPlan.optional(),
    ev: evPlan.optional(),
    optimise: optimisePlan.optional(),
    ...stateShape,
  })
  .superRefine((trigger, ctx) => {
    const one = exactlyOneKey(trigger, TRIGGER_KINDS, "a trigger (when:)");
    if ("problem" in one) ctx.addIssue({ code: "custom", message: one.problem });
  });

/** All keys given must hold. */
export const conditionSchema = z
  .strictObject({
    ...stateShape,
    /** Local hours, may cross midnight. */
    time: hoursRange.optional(),
    days: days.optional(),
    /** The current import price. */
    price_below: price.optional(),
    price_above: price.optional(),
  })
  .refine((condition) => Object.values(condition).some((value) => value !== undefined), {
    message: "an empty if: holds always; leave it out instead",
  });

export type Trigger = z.infer<typeof triggerSchema>;
export type Condition = z.infer<typeof conditionSchema>;

/** Which kind of trigger this is (the schema made sure there is exactly one). */
export function triggerKind(trigger: Trigger): TriggerKind {
  return TRIGGER_KINDS.find((kind) => trigger[kind] !== undefined) ?? "cron";
}
