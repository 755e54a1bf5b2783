import { z } from "zod";
import { localClockText, localDateTimeText, SLOT_MS } from "../time/index.js";
import type { Battery, Mode, PlannedSlot } from "./model.js";

/** What a planned half-hour does, in the words the table and Home Assistant show. */
export const SLOT_ACTIONS = ["charge", "hold", "self-use", "export"] as const;
export const slotActionSchema = z.enum(SLOT_ACTIONS);

const ACTION_OF: Readonly<Record<Mode, z.infer<typeof slotActionSchema>>> = {
  charge: "charge",
  hold: "hold",
  eco: "self-use",
  export: "export",
};

/** One planned half-hour with the numbers behind it and why the optimiser chose it. */
export const explainedSlotSchema = z.strictObject({
  /** Start of the half-hour, ms since the epoch. */
  start: z.number().int(),
  /** Its start on the local clock, "YYYY-MM-DD HH:MM" (24-hour). */
  time: z.string(),
  action: slotActionSchema,
  /** Prices, in the tariff's currency per kWh. */
  importPrice: z.number().finite(),
  exportPrice: z.number().finite(),
  /** Expected SoC (%) at the half-hour's end. */
  socPercent: z.number().finite(),
  /** Forecast house load and solar, kWh in the half-hour. */
  loadKwh: z.number().finite().min(0),
  solarKwh: z.number().finite().min(0),
  importKwh: z.number().finite().min(0),
  exportKwh: z.number().finite().min(0),
  /** Import cost less export income of the half-hour. */
  cost: z.number().finite(),
  /** The half-hours' costs so far, this one included (the optimiser's mode-change penalty left out). */
  runningCost: z.number().finite(),
  /** One line, true of the numbers in this row and the plan's prices. */
  reason: z.string().min(1),
  /** The car's planned charging in the half-hour, kWh, within loadKwh; only when a car is planned. */
  carKwh: z.number().finite().min(0).optional(),
});
export type ExplainedSlot = z.infer<typeof explainedSlotSchema>;

/** The optimiser's schedule and what it was planned from, one value per half-hour. */
export interface ScheduleBasis {
  readonly starts: readonly number[];
  readonly importPrices: readonly number[];
  readonly exportPrices: readonly number[];
  readonly load: readonly number[];
  readonly solar: readonly number[];
  readonly battery: Battery;
  /** Stored energy before the first half-hour, kWh. */
  readonly startSocKwh: number;
  readonly slots: readonly PlannedSlot[];
  /** The car's planned charging per half-hour, kWh (already in load), when a car is planned. */
  readonly car?: readonly number[];
}

export interface ExplainOptions {
  readonly timeZone: string;
  /** The tariff's currency: GBP prices read in pence. */
  readonly currency: string;
}

const EPS = 1e-9;

/** Every planned half-hour as a row of the plan's table, with a one-line reason derived from the data. */
export function explainSchedule(basis: ScheduleBasis, options: ExplainOptions): ExplainedSlot[] {
  const rows: ExplainedSlot[] = [];
  let running = 0;
  let before = basis.startSocKwh;
  basis.slots.forEach((slot, index) => {
    const start = basis.starts[index] as number;
    running += slot.cost;
    const moved = slot.socKwh - before;
    before = slot.socKwh;
    rows.push(
      explainedSlotSchema.parse({
        start,
        time: localDateTimeText(start, options.timeZone),
        action: ACTION_OF[slot.mode],
        importPrice: basis.importPrices[index],
        exportPrice: basis.exportPrices[index],
        socPercent: Math.round((slot.socKwh / basis.battery.capacityKwh) * 1000) / 10,
        loadKwh: basis.load[index],
        solarKwh: basis.solar[index],
        importKwh: slot.importKwh,
        exportKwh: slot.exportKwh,
        cost: slot.cost,
        runningCost: running,
        reason: reasonOf(basis, options, index, moved),
        ...(basis.car ? { carKwh: basis.car[index] ?? 0 } : {}),
      }),
    );
  });
  return rows;
}

/** A price as people read it: pence to a tenth for GBP ("7.1p", "32p"), else the amount and currency. */
export function priceText(price: number, currency: string): string {
  if (currency !== "GBP") return `${price.toFixed(3)} ${currency}`;
  return `${(price * 100).toFixed(1).replace(/\.0$/, "")}p`;
}

function reasonOf(basis: ScheduleBasis, options: ExplainOptions, index: number, moved: number): string {
  const slot = basis.slots[index] as PlannedSlot;
  const context = { basis, options, index, moved };
  switch (slot.mode) {
    case "charge":
      return chargeReason(context);
    case "export":
      return exportReason(context);
    case "hold":
      return holdReason(context);
    default:
      return selfUseReason(context);
  }
}

interface Context {
  readonly basis: ScheduleBasis;
  readonly options: ExplainOptions;
  readonly index: number;
  /** Stored energy gained (negative: given up) in the half-hour, kWh. */
  readonly moved: number;
}

function chargeReason({ basis, options, index }: Context): string {
  const price = basis.importPrices[index] as number;
  const money = (value: number) => priceText(value, options.currency);
  if (price < 0) return `charge: import at ${money(price)} pays to take energy`;
  const kept = keptFor(basis, index);
  const sale = dearestExport(basis, kept);
  const peak = dearestIn(basis.importPrices, kept.from, kept.to);
  const peakPrice = peak === undefined ? Number.NEGATIVE_INFINITY : (basis.importPrices[peak] as number);
  if (sale !== undefined && (basis.exportPrices[sale] as number) > Math.max(price, peakPrice))
    return `charge: ${money(price)} now, to export at ${money(basis.exportPrices[sale] as number)} at ${whenText(basis, options, index, sale)}`;
  if (peak !== undefined && peakPrice > price) {
    const rank = rankOf(basis.importPrices, 0, peak, price, "cheapest");
    return `charge: ${money(price)} is ${rank === 1 ? "the cheapest half-hour" : `among the ${rank} cheapest half-hours`} before the ${whenText(basis, options, index, peak)} peak at ${money(basis.importPrices[peak] as number)}`;
  }
  if (neverFallsAfter(basis, index))
    return `charge: ${money(price)} now, the energy is kept for after the plan's last half-hour (its prices not known yet)`;
  const rank = rankOf(basis.importPrices, 0, basis.importPrices.length, price, "cheapest");
  return `charge: ${money(price)} is ${rank === 1 ? "the cheapest half-hour" : `among the ${rank} cheapest half-hours`} of the plan`;
}

function exportReason({ basis, options, index }: Context): string {
  const price = basis.exportPrices[index] as number;
  const money = (value: number) => priceText(value, options.currency);
  const recharge = basis.slots.findIndex((slot, at) => at > index && slot.mode === "charge");
  const end = recharge === -1 ? basis.exportPrices.length : recharge;
  const rank = rankOf(basis.exportPrices, 0, end, price, "dearest");
  const which = rank === 1 ? "the dearest export half-hour" : `among the ${rank} dearest export half-hours`;
  const until =
    recharge === -1
      ? "of the plan"
      : `before the ${whenText(basis, options, index, recharge)} recharge at ${money(basis.importPrices[recharge] as number)}`;
  return `export: ${money(price)} is ${which} ${until}`;
}

function holdReason({ basis, options, index }: Context): string {
  const price = basis.importPrices[index] as number;
  const money = (value: number) => priceText(value, options.currency);
  const load = basis.load[index] as number;
  const solar = basis.solar[index] as number;
  if (solar >= load)
    return `hold: solar ${kwh(solar)} covers the load ${kwh(load)}; the surplus charges, nothing is taken out`;
  const uses = usesBeforeRecharge(basis, index);
  const sale = dearestOf(
    basis.exportPrices,
    uses.filter((at) => (basis.slots[at] as PlannedSlot).mode === "export"),
  );
  const peak = dearestOf(basis.importPrices, uses);
  const peakPrice = peak === undefined ? Number.NEGATIVE_INFINITY : (basis.importPrices[peak] as number);
  if (sale !== undefined && (basis.exportPrices[sale] as number) > Math.max(price, peakPrice))
    return `hold: import at ${money(price)} now, keeping the battery to export at ${money(basis.exportPrices[sale] as number)} at ${whenText(basis, options, index, sale)}`;
  if (peak !== undefined && peakPrice > price)
    return `hold: import at ${money(price)} now, keeping the battery for the ${whenText(basis, options, index, peak)} peak at ${money(peakPrice)}`;
  if (uses.length === 0 && neverFallsAfter(basis, index))
    return `hold: import at ${money(price)} now, the stored energy is kept for after the plan's last half-hour`;
  return `hold: import at ${money(price)} now, the battery kept at ${socText(basis, index)}`;
}

function selfUseReason({ basis, options, index, moved }: Context): string {
  const slot = basis.slots[index] as PlannedSlot;
  const money = (value: number) => priceText(value, options.currency);
  const load = basis.load[index] as number;
  const solar = basis.solar[index] as number;
  const socPercent = (slot.socKwh / basis.battery.capacityKwh) * 100;
  if (solar >= load && solar > 0) {
    if (moved > EPS) return `self-use: solar surplus ${kwh(solar - load)} charges the battery`;
    if (slot.exportKwh > EPS)
      return `self-use: solar surplus ${kwh(solar - load)} is exported at ${money(basis.exportPrices[index] as number)}, the battery being full`;
    return `self-use: solar ${kwh(solar)} covers the load ${kwh(load)}`;
  }
  if (moved < -EPS)
    return `self-use: the battery serves the house's ${kwh(load - solar)} instead of import at ${money(basis.importPrices[index] as number)}`;
  if (socPercent <= basis.battery.reservePercent + 0.1 && load > solar)
    return `self-use: the battery is at its ${basis.battery.reservePercent}% reserve, the house imports at ${money(basis.importPrices[index] as number)}`;
  if (load <= EPS && solar <= EPS) return "self-use: no load or solar is forecast for this half-hour";
  return "self-use: the house asks nothing of the battery";
}

/** The dearest price in [from, to) (the earliest of equals), undefined when the range is empty. */
function dearestIn(prices: readonly number[], from: number, to = prices.length): number | undefined {
  let found: number | undefined;
  for (let at = from; at < to; at++)
    if (found === undefined || (prices[at] as number) > (prices[found] as number)) found = at;
  return found;
}

/**
 * The half-hours the energy held in half-hour `index` is kept for: from the next to the first in
 * which the SoC is back at or under its level before `index` (the energy spent), or the plan's end.
 */
function keptFor(basis: ScheduleBasis, index: number): { readonly from: number; readonly to: number } {
  const level = index === 0 ? basis.startSocKwh : (basis.slots[index - 1] as PlannedSlot).socKwh;
  const spent = basis.slots.findIndex((slot, at) => at > index && slot.socKwh <= level + EPS);
  return { from: index + 1, to: spent === -1 ? basis.slots.length : spent + 1 };
}

/** The half-hours after `index` and before the next charge in which the stored energy falls. */
function usesBeforeRecharge(basis: ScheduleBasis, index: number): number[] {
  const uses: number[] = [];
  for (let at = index + 1; at < basis.slots.length; at++) {
    const slot = basis.slots[at] as PlannedSlot;
    if (slot.mode === "charge") break;
    if (slot.socKwh < (basis.slots[at - 1] as PlannedSlot).socKwh - EPS) uses.push(at);
  }
  return uses;
}

/** Whether the SoC never falls again after half-hour `index`. */
function neverFallsAfter(basis: ScheduleBasis, index: number): boolean {
  for (let at = index + 1; at < basis.slots.length; at++)
    if ((basis.slots[at] as PlannedSlot).socKwh < (basis.slots[at - 1] as PlannedSlot).socKwh - EPS) return false;
  return true;
}

/** The dearest of the half-hours given (the earliest of equals). */
function dearestOf(prices: readonly number[], indices: readonly number[]): number | undefined {
  let found: number | undefined;
  for (const at of indices) if (found === undefined || (prices[at] as number) > (prices[found] as number)) found = at;
  return found;
}

function socText(basis: ScheduleBasis, index: number): string {
  return `${Math.round(((basis.slots[index] as PlannedSlot).socKwh / basis.battery.capacityKwh) * 100)}%`;
}

/** The dearest half-hour of the range the plan exports in, undefined when it exports in none. */
function dearestExport(
  basis: ScheduleBasis,
  range: { readonly from: number; readonly to: number },
): number | undefined {
  let found: number | undefined;
  for (let at = range.from; at < range.to; at++) {
    const slot = basis.slots[at] as PlannedSlot;
    if (slot.mode !== "export" || slot.exportKwh <= EPS) continue;
    if (found === undefined || (basis.exportPrices[at] as number) > (basis.exportPrices[found] as number)) found = at;
  }
  return found;
}

/** 1 + how many prices in [from, to) are strictly better: the price is among that many best. */
function rankOf(
  prices: readonly number[],
  from: number,
  to: number,
  price: number,
  best: "cheapest" | "dearest",
): number {
  let better = 0;
  for (let at = from; at < to; at++) {
    const other = prices[at] as number;
    if (best === "cheapest" ? other < price - EPS : other > price + EPS) better++;
  }
  return better + 1;
}

/** "16:00", "16:00 tomorrow" or "2026-01-17 16:00": a later half-hour as seen from this one's local day. */
function whenText(basis: ScheduleBasis, options: ExplainOptions, from: number, at: number): string {
  const here = localDateTimeText(basis.starts[from] as number, options.timeZone).slice(0, 10);
  const there = basis.starts[at] as number;
  const day = localDateTimeText(there, options.timeZone).slice(0, 10);
  const clock = localClockText(there, options.timeZone);
  if (day === here) return clock;
  const nextDay = localDateTimeText((basis.starts[from] as number) + 24 * 2 * SLOT_MS, options.timeZone).slice(0, 10);
  return day === nextDay ? `${clock} tomorrow` : `${day} ${clock}`;
}

function kwh(value: number): string {
  return `${value.toFixed(2)} kWh`;
}
