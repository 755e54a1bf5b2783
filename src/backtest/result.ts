import { z } from "zod";
import { batterySchema } from "../optimiser/index.js";

/*
 * What `energy2mqtt backtest --json` prints and GET /api/backtest answers. The page reads it:
 * keep the rows' fields stable (add new ones, never rename).
 */

export const BACKTEST_POLICIES = ["actual", "no-battery", "eco-only", "rules", "optimiser", "exact-optimum"] as const;
export const backtestPolicySchema = z.enum(BACKTEST_POLICIES);
export type BacktestPolicy = z.infer<typeof backtestPolicySchema>;

export const BACKTEST_PERIODS = ["day", "month", "range"] as const;
export const backtestPeriodKindSchema = z.enum(BACKTEST_PERIODS);
export type BacktestPeriodKind = z.infer<typeof backtestPeriodKindSchema>;

const money = z.number().finite();
const kwh = z.number().finite().min(0);

export const backtestRowSchema = z.strictObject({
  /** A local day (YYYY-MM-DD), a month (YYYY-MM) or the whole range (YYYY-MM-DD..YYYY-MM-DD). */
  period: z.string().min(1),
  /** The tariff's name: "configured" for the rules file's, else the name given with --tariff. */
  tariff: z.string().min(1),
  policy: backtestPolicySchema,
  importKwh: kwh,
  exportKwh: kwh,
  /** Import cost less export income, standing charges excluded. */
  costGbp: money,
  /** The same tariff's no-battery cost over the period less this cost. */
  savedVsNoBatteryGbp: money,
});
export type BacktestRow = z.infer<typeof backtestRowSchema>;

export const backtestTariffSchema = z.strictObject({
  name: z.string().min(1),
  /** Where its prices came from, e.g. "Octopus AGILE-24-10-01 region C (import)". */
  source: z.string(),
});

/** What one rule did in the rules policy's replay under one tariff. */
export const backtestRuleSchema = z.strictObject({
  tariff: z.string().min(1),
  name: z.string(),
  /** Changes that reached the inverter model (presets, settings, snapshots put back). */
  changes: z.number().int().min(0),
  /** Windows the rule opened. */
  windows: z.number().int().min(0),
  /** What it sent that the replay does not carry out (charger commands, notifications). */
  notReplayed: z.array(z.string()),
});
export type BacktestRule = z.infer<typeof backtestRuleSchema>;

export const backtestResultSchema = z.strictObject({
  /** First and last local day, both included. */
  from: z.string(),
  to: z.string(),
  timeZone: z.string(),
  by: backtestPeriodKindSchema,
  /** Half-hours replayed, and those missing from the store (replayed as no load and no solar). */
  halfHours: z.number().int().min(0),
  missingHalfHours: z.number().int().min(0),
  battery: batterySchema,
  /** The SoC (%) every modelled policy starts from. */
  initialSocPercent: z.number(),
  tariffs: z.array(backtestTariffSchema),
  /** What the figures assume, in words: printed above the table. */
  assumptions: z.array(z.string()),
  rows: z.array(backtestRowSchema),
  /** The rules policy's rules, per tariff: what each did in the replay (absent when the rules policy was not run). */
  rules: z.array(backtestRuleSchema).optional(),
  /** Seconds each policy took, summed over the tariffs. */
  seconds: z.record(z.string(), z.number().min(0)),
});
export type BacktestResult = z.infer<typeof backtestResultSchema>;
