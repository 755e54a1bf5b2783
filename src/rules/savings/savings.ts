import { z } from "zod";
import { type Battery, batterySchema, slotEnergy } from "../../optimiser/index.js";
import { dayEndMs, dayOf, dayStartMs, SLOT_MS } from "../../time/index.js";
import type { RulesFile } from "../file/schema.js";
import { DISCHARGE_EFFICIENCY, RESERVE_PERCENT } from "../planners/expected-soc.js";
import type { Rate, Tariff } from "../tariffs/index.js";
import type { MeteredHouse, MeteredSlot } from "./metered-slots.js";

/*
 * What the battery saved: each local day's actual cost from the metered half-hours, against the
 * same house with no battery (the grid carries load less solar each half-hour) and with the
 * battery left in eco (self-consumption, the optimiser's energy model, from the SoC the day
 * started with). All three priced with the same running tariffs; the standing charge, owed either
 * way, is in each cost once a day. Half-hours without an import price are left out of all three.
 */

const money = z.number().finite();

export const savingsDaySchema = z.strictObject({
  /** Local date, YYYY-MM-DD. */
  day: z.string(),
  /** Half-hours metered, and how many the day has (46, 48 or 50). */
  slots: z.number().int().min(0),
  daySlots: z.number().int().positive(),
  /** Metered half-hours left out for want of an import price. */
  unpriced: z.number().int().min(0),
  /** Half-hours priced with a tariff's fallback, not a published price (past Agile days, say). */
  estimated: z.number().int().min(0),
  /** SoC (%) the eco-only house starts from: the day's first reading; null when none. */
  startSocPercent: z.number().nullable(),
  standingCharge: money,
  actual: money,
  noBattery: money,
  ecoOnly: money.nullable(),
  savedVsNoBattery: money,
  savedVsEcoOnly: money.nullable(),
});
export type SavingsDay = z.infer<typeof savingsDaySchema>;

export const savingsMonthSchema = z.strictObject({
  /** YYYY-MM. */
  month: z.string(),
  days: z.number().int().positive(),
  actual: money,
  noBattery: money,
  /** Over the days whose eco-only cost is known. */
  ecoOnly: money,
  savedVsNoBattery: money,
  savedVsEcoOnly: money,
});
export type SavingsMonth = z.infer<typeof savingsMonthSchema>;

export const savingsInputSchema = z.strictObject({
  /** First and last local day, YYYY-MM-DD, both included. */
  from: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "expected a date like 2026-11-01"),
  to: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "expected a date like 2026-11-30"),
  timeZone: z.string().min(1),
  battery: batterySchema,
});
export type SavingsInput = z.infer<typeof savingsInputSchema>;

export interface SavingsTariffs {
  readonly import?: Pick<Tariff, "rates" | "standingChargePerDay">;
  readonly export?: Pick<Tariff, "rates">;
}

/**
 * The tariffs as some of the house's inverters are priced alone: the unit rates, not the standing
 * charge (the house's connection's, owed once whoever draws on it).
 */
export function withoutStandingCharge(tariffs: SavingsTariffs): SavingsTariffs {
  const { import: imported, export: exported } = tariffs;
  return {
    ...(imported ? { import: { rates: (from: number, to: number) => imported.rates(from, to) } } : {}),
    ...(exported ? { export: exported } : {}),
  };
}

export interface Savings {
  readonly days: SavingsDay[];
  readonly months: SavingsMonth[];
}

/** The days (with at least one metered half-hour) and months between input.from and input.to. */
export function computeSavings(house: MeteredHouse, tariffs: SavingsTariffs, input: SavingsInput): Savings {
  const { timeZone, battery } = savingsInputSchema.parse(input);
  const from = dayStartMs(input.from, timeZone);
  const to = dayEndMs(input.to, timeZone);
  const byDay = new Map<string, MeteredSlot[]>();
  for (const slot of house.slots) {
    if (slot.start < from || slot.start >= to) continue;
    const day = dayOf(slot.start, timeZone);
    const list = byDay.get(day) ?? [];
    list.push(slot);
    byDay.set(day, list);
  }
  const days: SavingsDay[] = [];
  for (const [day, slots] of [...byDay.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    const start = dayStartMs(day, timeZone);
    const end = dayEndMs(day, timeZone);
    const firstSoc = house.soc.find((reading) => reading.at >= start && reading.at < end);
    const standing = tariffs.import?.standingChargePerDay?.(start) ?? 0;
    let actual = standing;
    let noBattery = standing;
    let ecoOnly = standing;
    let unpriced = 0;
    let estimated = 0;
    const importRates = ratesByStart(tariffs.import, start, end);
    const exportRates = ratesByStart(tariffs.export, start, end);
    let socKwh = firstSoc === undefined ? undefined : (firstSoc.percent / 100) * battery.capacityKwh;
    for (const slot of slots) {
      const importRate = importRates.get(slot.start);
      const exportRate = exportRates.get(slot.start);
      const importPrice = importRate?.price;
      const exportPrice = exportRate?.price ?? 0;
      const grid = slot.loadKwh - slot.solarKwh;
      const eco =
        socKwh === undefined ? undefined : slotEnergy(battery, 0.5, "eco", socKwh, slot.loadKwh, slot.solarKwh);
      if (eco) socKwh = eco.socKwh;
      if (importPrice === undefined) {
        unpriced++;
        continue;
      }
      if (importRate?.estimated || exportRate?.estimated) estimated++;
      actual += slot.importKwh * importPrice - slot.exportKwh * exportPrice;
      noBattery += Math.max(0, grid) * importPrice - Math.max(0, -grid) * exportPrice;
      if (eco) ecoOnly += eco.importKwh * importPrice - eco.exportKwh * exportPrice;
    }
    days.push({
      day,
      slots: slots.length,
      daySlots: Math.round((end - start) / SLOT_MS),
      unpriced,
      estimated,
      startSocPercent: firstSoc?.percent ?? null,
      standingCharge: standing,
      actual,
      noBattery,
      ecoOnly: firstSoc === undefined ? null : ecoOnly,
      savedVsNoBattery: noBattery - actual,
      savedVsEcoOnly: firstSoc === undefined ? null : ecoOnly - actual,
    });
  }
  return { days, months: monthsOf(days) };
}

/** A tariff's half-hourly rates over [from, to) by slot start; none without the tariff. */
function ratesByStart(tariff: Pick<Tariff, "rates"> | undefined, from: number, to: number): Map<number, Rate> {
  return new Map((tariff?.rates(from, to) ?? []).map((rate) => [rate.start, rate]));
}

function monthsOf(days: readonly SavingsDay[]): SavingsMonth[] {
  const months = new Map<string, SavingsMonth>();
  for (const day of days) {
    const month = day.day.slice(0, 7);
    const sum = months.get(month) ?? {
      month,
      days: 0,
      actual: 0,
      noBattery: 0,
      ecoOnly: 0,
      savedVsNoBattery: 0,
      savedVsEcoOnly: 0,
    };
    months.set(month, {
      month,
      days: sum.days + 1,
      actual: sum.actual + day.actual,
      noBattery: sum.noBattery + day.noBattery,
      ecoOnly: sum.ecoOnly + (day.ecoOnly ?? 0),
      savedVsNoBattery: sum.savedVsNoBattery + day.savedVsNoBattery,
      savedVsEcoOnly: sum.savedVsEcoOnly + (day.savedVsEcoOnly ?? 0),
    });
  }
  return [...months.values()];
}

/** The rules file's battery as the eco-only house runs it: the planner's own reserve and losses. */
export function savingsBattery(spec: RulesFile["battery"], capacityKwh: number): Battery {
  return {
    capacityKwh,
    chargeKw: spec.charge_kw,
    dischargeKw: spec.charge_kw,
    chargeEfficiency: spec.efficiency,
    dischargeEfficiency: DISCHARGE_EFFICIENCY,
    reservePercent: RESERVE_PERCENT,
  };
}
