import {
  type CarNeed,
  KeptForecast,
  type Mode,
  type PlannedSlot,
  PRICE_FORECAST,
  planAhead,
  planWithCar,
  type ScheduleBasis,
} from "../../optimiser/index.js";
import { HOUR_MS, SLOT_MS } from "../../time/index.js";
import { type Action, actionSchema } from "../file/action-schema.js";
import type { Trigger } from "../file/trigger-schema.js";
import type { Rate } from "../tariffs/index.js";
import { mergeByStart } from "../tariffs/merge-by-start.js";

/** The house's forecast consumption and solar, kWh per half-hour from the half-hour holding `from`. */
export interface HouseForecast {
  readonly from: number;
  readonly load: readonly number[];
  readonly solar: readonly number[];
  /** Local days of history the forecast learned from (0: none, the house is not modelled). */
  readonly days: number;
}

/** kW kept free under an import limit for the house above its forecast, when the rule does not say (the car bench: 1 kW let a half-hour of 2023 go over, 2 kW none). */
const HOUSE_MARGIN_KW = 2;

/** One run of a mode the optimiser planned, as a window of the rule. */
export interface ModeWindow {
  readonly start: number;
  readonly end: number;
  readonly mode: Exclude<Mode, "eco">;
  /** The SoC (%) the window aims at: charge up to it, export down to it. */
  readonly targetSoc: number;
  /**
   * The SoC (%) full power would reach by the window's end from the SoC the plan expects at its
   * start (for a hold, the target): a target beyond it changes nothing the battery does.
   */
  readonly reachSoc: number;
}

export interface OptimisePlan {
  readonly windows: readonly ModeWindow[];
  /** The SoC (%) expected at the end of each half-hour. */
  readonly soc: readonly { readonly at: number; readonly soc: number }[];
  readonly expectedCost: number;
  readonly solveMs: number;
  readonly notes: readonly string[];
  /** The schedule and what it was planned from, for explainSchedule; undefined when nothing was planned. */
  readonly basis?: ScheduleBasis;
  /** With a car: its planned energy per half-hour of basis.starts (kWh), and whether it gets all it needs. */
  readonly car?: { readonly kwh: readonly number[]; readonly met: boolean; readonly peakKw: readonly number[] };
}

export interface OptimiseWindowsInput {
  readonly spec: NonNullable<Trigger["optimise"]>;
  readonly now: number;
  /** The end of the engine's horizon. */
  readonly to: number;
  readonly importRates: readonly Rate[];
  readonly exportRates: readonly Rate[];
  readonly house?: HouseForecast;
  readonly soc: number;
  readonly capacityKwh: number;
  readonly chargeKw: number;
  /** Grid to battery, 0 to 1. */
  readonly chargeEfficiency: number;
  /** The car planned with the battery (car-windows.ts): what it needs, and the site's import limit. */
  readonly car?: { readonly need: CarNeed | undefined; readonly importLimitKw: number | undefined };
  /**
   * Prices published before now (any order): beyond the last published import price the plan goes
   * on to its horizon with prices forecast from them and the published ones (forecastSeries,
   * PRICE_FORECAST). Left out, or under a day of them, the plan ends with the published prices.
   */
  readonly priceHistory?: PriceHistory;
}

export interface PriceHistory {
  readonly timeZone: string;
  readonly import: readonly Rate[];
  readonly export: readonly Rate[];
}

/**
 * The optimiser's schedule from the half-hour holding now to the horizon or the last known import
 * price, whichever comes first, as windows of one mode each. Self-consumption (eco) is the
 * inverter's own behaviour, so it needs no window: the restore after each window returns to it.
 */
export function planOptimiseWindows(input: OptimiseWindowsInput): OptimisePlan {
  const { spec } = input;
  const notes: string[] = [];
  const first = Math.floor(input.now / SLOT_MS) * SLOT_MS;
  const end = Math.min(input.to, input.now + spec.horizon_hours * HOUR_MS);
  const starts: number[] = [];
  const importPrices: number[] = [];
  const exportPrices: number[] = [];
  for (let at = first; at < end; at += SLOT_MS) {
    const price = priceAt(input.importRates, at);
    if (price === undefined) break;
    starts.push(at);
    importPrices.push(price);
    exportPrices.push(priceAt(input.exportRates, at) ?? 0);
  }
  if (starts.length === 0)
    return { windows: [], soc: [], expectedCost: 0, solveMs: 0, notes: ["no import prices known"] };
  const published = starts.length;
  const beyond = input.priceHistory ? forecastPrices(input, input.priceHistory, first + published * SLOT_MS, end) : [];
  for (const slot of beyond) {
    starts.push(slot.at);
    importPrices.push(slot.import);
    exportPrices.push(slot.export);
  }
  const house = input.house;
  if (!house || house.days === 0)
    notes.push("no local history yet: the house's consumption and solar are not modelled");
  const forecast = (series: "load" | "solar") =>
    starts.map((at) => {
      const index = house ? Math.round((at - house.from) / SLOT_MS) : -1;
      return house && index >= 0 ? Math.max(0, house[series][index] ?? 0) : 0;
    });
  const socKwh = (Math.min(100, Math.max(0, input.soc)) / 100) * input.capacityKwh;
  // The same re-plan as the planner-year benchmark measured (its row 5b: published prices only).
  const load = forecast("load");
  const solar = forecast("solar");
  const battery = {
    capacityKwh: input.capacityKwh,
    chargeKw: input.chargeKw,
    dischargeKw: spec.discharge_kw ?? input.chargeKw,
    chargeEfficiency: input.chargeEfficiency,
    dischargeEfficiency: spec.discharge_efficiency,
    reservePercent: spec.reserve_soc,
    ...(spec.export_limit_kw === undefined ? {} : { exportLimitKw: spec.export_limit_kw }),
  };
  const ahead = { importPrices, exportPrices, load, solar, battery, socKwh, changeCost: spec.change_cost };
  const withCar = input.car
    ? planWithCar({
        ...ahead,
        ...(input.car.need ? { car: input.car.need } : {}),
        ...(input.car.importLimitKw === undefined
          ? {}
          : { importLimitKw: input.car.importLimitKw, houseMarginKw: spec.house_margin_kw ?? HOUSE_MARGIN_KW }),
      })
    : undefined;
  const schedule = withCar?.schedule ?? planAhead(ahead);
  // The battery was planned with the car in the house's load: the explanation says so.
  const planned = withCar ? load.map((kwh, index) => kwh + (withCar.carKwh[index] ?? 0)) : load;
  const percent = (kwh: number) => (kwh / input.capacityKwh) * 100;
  const windows = runsOf(schedule.slots, starts, percent, {
    startKwh: socKwh,
    capacityKwh: input.capacityKwh,
    chargeKwh: input.chargeKw * 0.5 * input.chargeEfficiency,
    dischargeKwh: ((spec.discharge_kw ?? input.chargeKw) * 0.5) / spec.discharge_efficiency,
  });
  // What lies beyond the published prices only shapes the plan: shown and acted on is what is known.
  const shown = (series: readonly number[]) => series.slice(0, published);
  const slots = schedule.slots.slice(0, published);
  return {
    windows: windows.filter((window) => window.start < first + published * SLOT_MS),
    soc: slots.map((slot, index) => ({
      at: (starts[index] ?? first) + SLOT_MS,
      soc: Math.round(percent(slot.socKwh) * 10) / 10,
    })),
    expectedCost: schedule.expectedCost,
    solveMs: schedule.solveMs,
    notes,
    basis: {
      starts: shown(starts),
      importPrices: shown(importPrices),
      exportPrices: shown(exportPrices),
      load: shown(planned),
      solar: shown(solar),
      battery,
      startSocKwh: socKwh,
      slots,
      // The car's column only while a car is planned (plugged in, needing energy).
      ...(withCar && input.car?.need ? { car: shown(withCar.carKwh) } : {}),
    },
    ...(withCar ? { car: { kwh: shown(withCar.carKwh), met: withCar.met, peakKw: withCar.peakKw } } : {}),
  };
}

/**
 * Import and export prices for the half-hours from `from` to `end` that have no published import
 * price: the export's own where it has one, else forecast from the prices known before `from`.
 */
function forecastPrices(input: OptimiseWindowsInput, history: PriceHistory, from: number, end: number) {
  const count = Math.ceil((end - from) / SLOT_MS);
  const known = (rate: Rate | undefined) => (rate && rate.start < from && !rate.estimated ? rate : undefined);
  // A price published ahead is the newer word on a half-hour the history holds too.
  const samples = (past: readonly Rate[], ahead: readonly Rate[]) =>
    mergeByStart(past, ahead, (before, after) => {
      const rate = known(after) ?? known(before);
      return rate && { start: rate.start, kwh: rate.price };
    });
  const imports = samples(history.import, input.importRates);
  if (count <= 0 || imports.length < 48) return [];
  const options = { ...PRICE_FORECAST, from, timeZone: history.timeZone, slots: count };
  const importAhead = lastForecast.import.of(imports, options);
  const exports = samples(history.export, input.exportRates);
  const exportAhead = exports.length >= 48 ? lastForecast.export.of(exports, options) : [];
  return importAhead.map((price, index) => {
    const at = from + index * SLOT_MS;
    return { at, import: price, export: priceAt(input.exportRates, at) ?? exportAhead[index] ?? 0 };
  });
}

/** Each side's price forecast, kept between the re-plans until the next publication. */
const lastForecast = { import: new KeptForecast(), export: new KeptForecast() };

/**
 * Touching slots of one mode (eco left out) as one window each. A window writes one percent limit,
 * the target of its last slot; a charge or export runs on into the next slot only when it moved at
 * least half its full power's worth (the plan's own steps on the SoC grid fall a little short of
 * full power), else the window ends where its target is met.
 */
function runsOf(
  slots: readonly PlannedSlot[],
  starts: readonly number[],
  percent: (kwh: number) => number,
  full: {
    readonly startKwh: number;
    readonly capacityKwh: number;
    readonly chargeKwh: number;
    readonly dischargeKwh: number;
  },
) {
  const windows: ModeWindow[] = [];
  let before = full.startKwh;
  let carriesOn = false;
  /** The SoC (kWh) full power would reach by the end of the window being built. */
  let reachKwh = 0;
  const reach = (kwh: number) => Math.round(Math.min(100, Math.max(0, percent(kwh))) * 10) / 10;
  slots.forEach((slot, index) => {
    const start = starts[index];
    const moved = slot.socKwh - before;
    before = slot.socKwh;
    if (slot.mode === "eco" || start === undefined) {
      carriesOn = false;
      return;
    }
    const last = windows[windows.length - 1];
    const target = targetOf(slot, percent);
    const continues = last !== undefined && carriesOn && last.mode === slot.mode && last.end === start;
    const step = slot.mode === "charge" ? full.chargeKwh : slot.mode === "export" ? -full.dischargeKwh : 0;
    reachKwh = Math.min(full.capacityKwh, Math.max(0, (continues ? reachKwh : slot.socKwh - moved) + step));
    const reachSoc = slot.mode === "hold" ? target : reach(reachKwh);
    if (last && continues) {
      windows[windows.length - 1] = { ...last, end: start + SLOT_MS, targetSoc: target, reachSoc };
    } else {
      windows.push({ start, end: start + SLOT_MS, mode: slot.mode, targetSoc: target, reachSoc });
    }
    carriesOn =
      slot.mode === "hold" ||
      (slot.mode === "charge" && moved >= full.chargeKwh / 2) ||
      (slot.mode === "export" && -moved >= full.dischargeKwh / 2);
  });
  return windows;
}

/** What a window does, in words: "optimiser: grid charge to 95%". */
export function modeLabel(window: Pick<ModeWindow, "mode" | "targetSoc">): string {
  const does = window.mode === "charge" ? "grid charge" : window.mode === "hold" ? "hold the battery" : "export";
  return `optimiser: ${does} to ${window.targetSoc}%`;
}

/** A whole percent the inverter can take: up for a charge (reach it), down for an export (leave it). */
function targetOf(slot: PlannedSlot, percent: (kwh: number) => number): number {
  const exact = percent(slot.targetKwh ?? slot.socKwh);
  const rounded = slot.mode === "charge" ? Math.ceil(exact - 1e-6) : Math.floor(exact + 1e-6);
  return Math.min(100, Math.max(4, rounded));
}

function priceAt(rates: readonly Rate[], at: number): number | undefined {
  return rates.find((rate) => rate.start <= at && at < rate.end)?.price;
}

const slotAt = {
  start_time: "{{ window.start }}",
  end_time: "{{ window.end }}",
  percent_limit: "{{ plan.target_soc }}",
};

/** What each mode writes when the rule gives no do: of its own. */
export const MODE_ACTIONS: { readonly [M in ModeWindow["mode"]]: readonly Action[] } = {
  charge: [actionSchema.parse({ preset: "timed-charge", with: { enabled: true, slots: [slotAt] } })],
  export: [actionSchema.parse({ preset: "timed-export", with: { enabled: true, slots: [slotAt] } })],
  hold: [actionSchema.parse({ preset: "pause-battery", with: { mode: 2 } })],
};
