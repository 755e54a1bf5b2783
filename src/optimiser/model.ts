import { z } from "zod";

/**
 * What the optimiser is given. Battery parameters, prices and forecasts come from outside
 * (configuration, tariffs, the store), so each is a schema; the types are inferred from them.
 */

/** The four presets an inverter has, as the optimiser plans them. */
export const MODES = ["eco", "hold", "charge", "export"] as const;
export const modeSchema = z.enum(MODES);
export type Mode = z.infer<typeof modeSchema>;

export const batterySchema = z
  .strictObject({
    /** Usable capacity, kWh. */
    capacityKwh: z.number().positive(),
    /** Most AC power into the battery, kW. */
    chargeKw: z.number().positive(),
    /** Most AC power out of the battery, kW. */
    dischargeKw: z.number().positive(),
    /** AC in to stored energy, 0 to 1. */
    chargeEfficiency: z.number().gt(0).max(1),
    /** Stored energy to AC out, 0 to 1. */
    dischargeEfficiency: z.number().gt(0).max(1),
    /** The SoC (%) the battery never discharges below. */
    reservePercent: z.number().min(0).max(100),
    /** Most power the grid connection may export, kW; left out, no limit. */
    exportLimitKw: z.number().positive().optional(),
  })
  .readonly();
export type Battery = z.infer<typeof batterySchema>;

const finite = z.number().finite();
const nonNegative = z.number().finite().min(0);

/** One value per half-hour (or per slot of slotHours), in time order from now. */
export const priceSeriesSchema = z.array(finite).min(1);
export const energySeriesSchema = z.array(nonNegative).min(1);

export const optimiseInputSchema = z
  .strictObject({
    /** Price of a kWh imported in each slot (any currency; negative prices allowed). */
    importPrices: priceSeriesSchema,
    /** Price paid for a kWh exported in each slot. */
    exportPrices: priceSeriesSchema,
    /** The house's consumption forecast, kWh per slot. */
    load: energySeriesSchema,
    /** Solar generation forecast, kWh per slot. */
    solar: energySeriesSchema,
    battery: batterySchema,
    /** Stored energy now, kWh. */
    socKwh: nonNegative,
    /** The mode the inverter is in now: staying in it costs no change. */
    mode: modeSchema.default("eco"),
    /** Length of a slot, hours. */
    slotHours: z.number().positive().default(0.5),
    /** Cost of writing a new mode to the inverter, in the prices' currency. */
    changeCost: nonNegative.default(0.002),
    /** What a kWh still stored at the end of the horizon is worth (currency per stored kWh). */
    terminalValue: finite.default(0),
    /** The SoC grid of the dynamic program, kWh. */
    socStepKwh: z.number().positive().default(0.05),
    /**
     * Per slot, true where the battery may not be put in charge mode (a timed charge runs at full
     * power from the grid): an import limit has no room for it there.
     */
    noGridCharge: z.array(z.boolean()).optional(),
  })
  .readonly()
  .refine(
    (input) =>
      input.exportPrices.length === input.importPrices.length &&
      input.load.length === input.importPrices.length &&
      input.solar.length === input.importPrices.length &&
      (input.noGridCharge === undefined || input.noGridCharge.length === input.importPrices.length),
    { message: "importPrices, exportPrices, load, solar (and noGridCharge) must have one value per slot each" },
  );
export type OptimiseInput = z.input<typeof optimiseInputSchema>;
export type OptimiseOptions = z.output<typeof optimiseInputSchema>;

/** What one slot is set to: a mode, and for charge and export the SoC (kWh) to stop at. */
export interface SlotAction {
  readonly mode: Mode;
  /** charge: stop charging at this stored energy; export: stop discharging at it. */
  readonly targetKwh?: number;
}

export interface PlannedSlot extends SlotAction {
  /** Stored energy expected at the end of the slot, kWh. */
  readonly socKwh: number;
  readonly importKwh: number;
  readonly exportKwh: number;
  /** Import cost less export income in the slot. */
  readonly cost: number;
}

export interface Schedule {
  readonly slots: readonly PlannedSlot[];
  /** Sum of the slots' costs plus mode changes (terminal value not included). */
  readonly expectedCost: number;
  /** How many times the plan writes a new mode (the first slot counts when it differs from `mode`). */
  readonly modeChanges: number;
  /** Wall time of the solve, ms. */
  readonly solveMs: number;
}
