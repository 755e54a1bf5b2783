import { type Mode, slotCost, slotEnergy } from "../../optimiser/index.js";
import { SLOT_MS } from "../../time/index.js";
import type { Action } from "../file/action-schema.js";
import type { RulesFile } from "../file/schema.js";
import { renderTemplates, type TemplateContext } from "../file/templates.js";
import type { HouseForecast } from "./optimise-windows.js";

/** What a window does to the battery, read from its actions. */
export interface BatteryMode {
  readonly mode: Exclude<Mode, "eco">;
  /** The SoC (%) a charge stops at or an export leaves. */
  readonly targetSoc: number | undefined;
}

/** The battery's part of a list of actions: the first timed charge, timed export or discharge, or pause. */
export function batteryModeOf(actions: readonly Action[], context: TemplateContext): BatteryMode | undefined {
  for (const action of actions) {
    if (action.preset === undefined) continue;
    const fields = renderTemplates(action.with ?? {}, context) as Record<string, unknown>;
    if (fields.enabled === false) continue;
    const target = firstPercentLimit(fields.slots);
    if (action.preset === "timed-charge") return { mode: "charge", targetSoc: target };
    if (action.preset === "timed-export" || action.preset === "timed-discharge")
      return { mode: "export", targetSoc: target };
    if (action.preset === "pause-battery" && (fields.mode === 2 || fields.mode === 3))
      return { mode: "hold", targetSoc: undefined };
  }
  return undefined;
}

function firstPercentLimit(slots: unknown): number | undefined {
  const list = Array.isArray(slots) ? slots : typeof slots === "object" && slots ? Object.values(slots) : [];
  for (const slot of list) {
    const limit = (slot as { percent_limit?: unknown } | null)?.percent_limit;
    if (typeof limit === "number") return limit;
  }
  return undefined;
}

export interface ModeSpan extends BatteryMode {
  readonly start: number;
  readonly end: number;
}

export interface ExpectedSocInput {
  readonly from: number;
  readonly to: number;
  readonly socPercent: number;
  readonly capacityKwh: number;
  readonly battery: RulesFile["battery"];
  /** The windows that change the battery, the more important first where they overlap. */
  readonly spans: readonly ModeSpan[];
  readonly house: HouseForecast | undefined;
  readonly importAt: (at: number) => number | undefined;
  readonly exportAt: (at: number) => number | undefined;
}

export interface ExpectedSoc {
  /** The SoC (%) at the start of each half-hour and at the end of the last. */
  readonly points: readonly { readonly at: number; readonly soc: number }[];
  /** Import cost less export income over the half-hours whose prices are known. */
  readonly cost: number;
  /** Days of history the house's forecast learned from; 0: the house's own use is not modelled. */
  readonly days: number;
}

/** The reserve and discharge efficiency taken when the rules do not say (the optimiser's defaults). */
export const RESERVE_PERCENT = 4;
export const DISCHARGE_EFFICIENCY = 0.95;

/**
 * The battery half-hour by half-hour under the planned windows and the house's forecast use and
 * solar: self-consumption outside the windows, and in them what their actions set. The same energy
 * model as the optimiser's (optimiser/energy.ts), so a plan and its picture agree.
 */
export function expectedSoc(input: ExpectedSocInput): ExpectedSoc {
  const battery = {
    capacityKwh: input.capacityKwh,
    chargeKw: input.battery.charge_kw,
    dischargeKw: input.battery.charge_kw,
    chargeEfficiency: input.battery.efficiency,
    dischargeEfficiency: DISCHARGE_EFFICIENCY,
    reservePercent: RESERVE_PERCENT,
  };
  const toKwh = (percent: number) => (Math.min(100, Math.max(0, percent)) / 100) * input.capacityKwh;
  const toPercent = (kwh: number) => Math.round((kwh / input.capacityKwh) * 1000) / 10;
  const first = Math.floor(input.from / SLOT_MS) * SLOT_MS;
  let soc = toKwh(input.socPercent);
  let cost = 0;
  const points = [{ at: input.from, soc: toPercent(soc) }];
  for (let at = first; at < input.to; at += SLOT_MS) {
    const span = input.spans.find((one) => one.start <= at && at < one.end);
    const index = input.house ? Math.round((at - input.house.from) / SLOT_MS) : -1;
    const load = input.house && index >= 0 ? (input.house.load[index] ?? 0) : 0;
    const solar = input.house && index >= 0 ? (input.house.solar[index] ?? 0) : 0;
    // The first half-hour counts from now only.
    const share = Math.min(1, (Math.min(at + SLOT_MS, input.to) - Math.max(at, input.from)) / SLOT_MS);
    const target = span?.targetSoc === undefined ? undefined : toKwh(span.targetSoc);
    const result = slotEnergy(battery, 0.5 * share, span?.mode ?? "eco", soc, load * share, solar * share, target);
    const importPrice = input.importAt(at);
    if (importPrice !== undefined) cost += slotCost(result, importPrice, input.exportAt(at) ?? 0);
    soc = result.socKwh;
    points.push({ at: Math.min(at + SLOT_MS, input.to), soc: toPercent(soc) });
  }
  return { points, cost, days: input.house?.days ?? 0 };
}
