import type { CarNeed } from "../../optimiser/index.js";
import type { CarState } from "../../rules-runtime/index.js";
import { HOUR_MS, nextLocalTime, SLOT_MS } from "../../time/index.js";
import { type Action, actionSchema } from "../file/action-schema.js";
import type { Rule } from "../file/schema.js";
import type { Trigger } from "../file/trigger-schema.js";
import type { ModeWindow } from "./optimise-windows.js";

export type CarSpec = NonNullable<NonNullable<Trigger["optimise"]>["car"]>;

/** What the engine knows of the car when it plans. */
export interface CarInputs {
  /** From the charger's status; undefined until it has reported one. */
  readonly plugged: boolean | undefined;
  /** The last good number on a topic (see CarTopics). */
  topic(topic: string): number | undefined;
  /** kWh the charger delivered between `from` and `now`, at `kw`. */
  deliveredKwh(from: number, now: number, kw: number): number;
  /** The kWh still needed by the deadline, told by hand (`rules plan --car-need-kwh`): replaces the target less what was delivered. */
  readonly needKwh?: number;
}

/**
 * One rule's CarInputs from the car as data (the running daemon's, or told by hand): what it
 * delivered is the kWh the state gives for that rule toward its current deadline.
 */
export function carInputsOf(state: CarState, rule: string, needKwh?: number): CarInputs {
  return {
    plugged: state.plugged ?? undefined,
    topic: (topic) => state.topics[topic],
    deliveredKwh: () => state.deliveredKwh[rule] ?? 0,
    ...(needKwh === undefined ? {} : { needKwh }),
  };
}

/** Whether the car's target is a SoC (the car's own, from soc_topic), not kWh. */
export function carTargetIsSoc(spec: CarSpec): boolean {
  return spec.soc !== undefined || (spec.battery_kwh !== undefined && spec.soc_topic !== undefined);
}

export interface CarNeedResult {
  /** Undefined: nothing to plan for the car now (see notes). */
  readonly need: CarNeed | undefined;
  readonly maxKw: number;
  readonly notes: readonly string[];
}

/**
 * What the car needs before its deadline, from the slot holding `now`: a kWh target less what
 * the charger delivered since the previous deadline, or a SoC target less the car's own SoC.
 */
export function carNeed(
  spec: CarSpec,
  input: { readonly now: number; readonly timeZone: string; readonly evChargeKw: number; readonly car?: CarInputs },
): CarNeedResult {
  const maxKw = spec.max_kw ?? input.evChargeKw;
  const none = (note: string): CarNeedResult => ({ need: undefined, maxKw, notes: [`car: ${note}`] });
  const car = input.car;
  if (car?.plugged === undefined) return none("the charger has not said whether a car is plugged in: no car planned");
  if (!car.plugged) return { need: undefined, maxKw, notes: [] };
  const deadline = nextLocalTime(input.now, spec.by, input.timeZone);
  let needKwh: number;
  if (car.needKwh !== undefined) needKwh = car.needKwh;
  else if (carTargetIsSoc(spec)) {
    const target = (spec.target_topic ? car.topic(spec.target_topic) : undefined) ?? spec.soc;
    const soc = spec.soc_topic ? car.topic(spec.soc_topic) : undefined;
    if (target === undefined) return none(`no target SoC yet on ${spec.target_topic}`);
    if (soc === undefined) return none(`the car's SoC is not known yet (${spec.soc_topic})`);
    needKwh = (Math.max(0, Math.min(100, target) - soc) / 100) * (spec.battery_kwh ?? 0);
  } else {
    const target = (spec.target_topic ? car.topic(spec.target_topic) : undefined) ?? spec.kwh;
    if (target === undefined) return none(`no target yet on ${spec.target_topic}`);
    needKwh = Math.max(0, target - deliveredTowardDeadline(spec, car, input));
  }
  if (needKwh <= 1e-6) return { need: undefined, maxKw, notes: [] };
  const first = Math.floor(input.now / SLOT_MS) * SLOT_MS;
  return { need: { maxKw, needKwh, beforeSlot: Math.floor((deadline - first) / SLOT_MS) }, maxKw, notes: [] };
}

/** An optimise rule's car. */
export interface CarRule {
  readonly rule: string;
  readonly spec: CarSpec;
}

/** The optimise rules' cars, in the file's order. */
export function carRules(rules: readonly Rule[]): CarRule[] {
  return rules.flatMap((rule) =>
    rule.when.flatMap((trigger) => (trigger.optimise?.car ? [{ rule: rule.name, spec: trigger.optimise.car }] : [])),
  );
}

/** kWh the charger delivered toward the car's current deadline: since the previous `by`, at the car's power. */
export function deliveredTowardDeadline(
  spec: CarSpec,
  car: Pick<CarInputs, "deliveredKwh">,
  at: { readonly now: number; readonly timeZone: string; readonly evChargeKw: number },
): number {
  const deadline = nextLocalTime(at.now, spec.by, at.timeZone);
  return car.deliveredKwh(deadline - 24 * HOUR_MS, at.now, spec.max_kw ?? at.evChargeKw);
}

/** A window of the optimise rule: the battery's mode (if not eco), the car's charging, or both. */
export interface JointWindow {
  readonly start: number;
  readonly end: number;
  readonly battery: ModeWindow | undefined;
  readonly car: boolean;
}

/**
 * The battery's windows and the car's half-hours as windows of one rule: a new window wherever
 * either changes, since a rule holds one window at a time.
 */
export function jointWindows(
  battery: readonly ModeWindow[],
  starts: readonly number[],
  carKwh: readonly number[],
): JointWindow[] {
  const carAt = (at: number) =>
    starts.some((start, index) => start <= at && at < start + SLOT_MS && (carKwh[index] ?? 0) > 0);
  const edges = new Set<number>();
  for (const window of battery) edges.add(window.start).add(window.end);
  starts.forEach((start, index) => {
    if ((carKwh[index] ?? 0) > 0) edges.add(start).add(start + SLOT_MS);
  });
  const sorted = [...edges].sort((a, b) => a - b);
  const windows: JointWindow[] = [];
  for (let i = 0; i + 1 < sorted.length; i++) {
    const start = sorted[i] as number;
    const end = sorted[i + 1] as number;
    const mode = battery.find((window) => window.start <= start && start < window.end);
    const car = carAt(start);
    if (!mode && !car) continue;
    const last = windows[windows.length - 1];
    if (last && last.end === start && last.battery === mode && last.car === car)
      windows[windows.length - 1] = { ...last, end };
    else windows.push({ start, end, battery: mode, car });
  }
  return windows;
}

/** The charger command a car window sends; the rule's restore stops the charging it started. */
export function carActions(charger: string | undefined): Action[] {
  return [actionSchema.parse({ charger: "start-charge", ...(charger ? { uuid: charger } : {}) })];
}
