import type { Inventory } from "../../telemetry/index.js";
import { parseClock, wallClock } from "../../time/index.js";
import type { Condition, Trigger } from "../file/schema.js";
import { DAY_NAMES } from "../file/schema-common.js";
import { inHours } from "../tariffs/index.js";

/** The live values rules look at, from the latest readings. */
export interface LiveState {
  /** Battery SoC, %. */
  readonly batterySoc?: number;
  /** PV power, W. */
  readonly pvPower?: number;
  /** Grid import, W (0 while exporting). */
  readonly gridImport?: number;
  readonly evPlugged?: boolean;
  readonly evStatus?: string;
  /** The watched inverter's battery calibration runs (read where the path shows it: the LAN). */
  readonly calibrating?: boolean;
}

/**
 * What the rules read of one device's fresh telemetry (the rules feature makes them from the
 * bus). Inverter values are as the API counts them: grid power positive when exporting.
 */
export type LiveObservation =
  | {
      readonly kind: "inverter";
      readonly serial: string;
      readonly batterySoc?: number;
      readonly pvPower?: number;
      readonly gridPower?: number;
      readonly calibrating?: boolean;
    }
  | { readonly kind: "charger"; readonly uuid: string; readonly status: string }
  | {
      readonly kind: "charger-meter";
      readonly uuid: string;
      /** When the charger read its register. */
      readonly at: number;
      /** Its import register (Energy.Active.Import.Register), kWh. */
      readonly importKwh: number;
    };

const PLUGGED = new Set(["Preparing", "Charging", "SuspendedEV", "SuspendedEVSE", "Finishing"]);

/** The state after one observation; those of other devices than the ones watched are ignored. */
export function nextState(
  state: LiveState,
  seen: LiveObservation,
  watched: { readonly inverter?: string; readonly charger?: string },
): LiveState {
  if (seen.kind === "inverter" && seen.serial === watched.inverter) {
    const { batterySoc, pvPower, gridPower, calibrating } = seen;
    return {
      ...state,
      ...(batterySoc === undefined ? {} : { batterySoc }),
      ...(calibrating === undefined ? {} : { calibrating }),
      ...(pvPower === undefined ? {} : { pvPower }),
      ...(gridPower === undefined ? {} : { gridImport: Math.max(0, -gridPower) }),
    };
  }
  if (seen.kind === "charger" && seen.uuid === watched.charger) {
    return { ...state, evStatus: seen.status, evPlugged: PLUGGED.has(seen.status) };
  }
  return state;
}

type StateKeys = Pick<
  Condition,
  | "battery_soc_below"
  | "battery_soc_above"
  | "pv_power_above"
  | "pv_power_below"
  | "grid_import_above"
  | "grid_import_below"
  | "ev_plugged"
  | "ev_status"
>;

/** Whether every state key given holds; undefined when a value it needs is not known yet. */
export function stateHolds(spec: StateKeys, state: LiveState): boolean | undefined {
  const checks: (boolean | undefined)[] = [];
  const compare = (limit: number | undefined, value: number | undefined, below: boolean) => {
    if (limit === undefined) return;
    checks.push(value === undefined ? undefined : below ? value < limit : value > limit);
  };
  compare(spec.battery_soc_below, state.batterySoc, true);
  compare(spec.battery_soc_above, state.batterySoc, false);
  compare(spec.pv_power_below, state.pvPower, true);
  compare(spec.pv_power_above, state.pvPower, false);
  compare(spec.grid_import_below, state.gridImport, true);
  compare(spec.grid_import_above, state.gridImport, false);
  if (spec.ev_plugged !== undefined)
    checks.push(state.evPlugged === undefined ? undefined : state.evPlugged === spec.ev_plugged);
  if (spec.ev_status !== undefined) {
    const wanted = Array.isArray(spec.ev_status) ? spec.ev_status : [spec.ev_status];
    checks.push(state.evStatus === undefined ? undefined : wanted.includes(state.evStatus));
  }
  if (checks.includes(false)) return false;
  return checks.includes(undefined) ? undefined : true;
}

/** A state trigger's key and value as a condition. */
export function triggerState(trigger: Trigger): StateKeys {
  const { cron: _c, price: _p, cheapest: _ch, most_expensive: _m, battery: _b, ev: _e, ...state } = trigger;
  return state;
}

export interface ConditionContext {
  readonly now: number;
  readonly timeZone: string;
  readonly state: LiveState;
  readonly importPrice: number | undefined;
}

/** Whether a rule's if: holds; a value not known yet counts as not holding, with the reason. */
export function conditionHolds(
  condition: Condition | undefined,
  context: ConditionContext,
): { ok: boolean; why: string } {
  if (!condition) return { ok: true, why: "" };
  const state = stateHolds(condition, context.state);
  if (state === undefined) return { ok: false, why: "the live state it checks is not known yet" };
  if (!state) return { ok: false, why: `the live state does not match ${JSON.stringify(condition)}` };
  const wall = wallClock(context.now, context.timeZone);
  if (
    condition.time !== undefined &&
    !inHours(wall.minutes, parseClock(condition.time.slice(0, 5)), parseClock(condition.time.slice(6)))
  )
    return { ok: false, why: `outside ${condition.time}` };
  if (condition.days !== undefined && !condition.days.includes(DAY_NAMES[wall.weekday] ?? "mon"))
    return { ok: false, why: `not on ${condition.days.join(", ")}` };
  const price = context.importPrice;
  if (condition.price_below !== undefined || condition.price_above !== undefined) {
    if (price === undefined) return { ok: false, why: "no import price is known now" };
    if (condition.price_below !== undefined && !(price < condition.price_below))
      return { ok: false, why: `the import price ${price} is not below ${condition.price_below}` };
    if (condition.price_above !== undefined && !(price > condition.price_above))
      return { ok: false, why: `the import price ${price} is not above ${condition.price_above}` };
  }
  return { ok: true, why: "" };
}

/** The devices whose readings the rules follow: the controllable inverter (else the first) and the first charger. */
export function watchedDevices(inventory: Inventory): { inverter?: string; charger?: string } {
  const inverter = (inventory.inverters.find((found) => found.controllable) ?? inventory.inverters[0])?.serial;
  const charger = inventory.evChargers[0]?.uuid;
  return { ...(inverter ? { inverter } : {}), ...(charger ? { charger } : {}) };
}
