import { z } from "zod";

/** One sampledValue of OCPP 1.6's MeterValues.req (and StopTransaction's transactionData). */
export const sampledValueSchema = z.object({
  value: z.string(),
  context: z.string().optional(),
  format: z.enum(["Raw", "SignedData"]).optional(),
  measurand: z.string().optional(),
  phase: z.string().optional(),
  location: z.string().optional(),
  unit: z.string().optional(),
});

export const meterValueSchema = z.object({
  timestamp: z.string(),
  sampledValue: z.array(sampledValueSchema),
});

export type SampledValue = z.infer<typeof sampledValueSchema>;
export type MeterValue = z.infer<typeof meterValueSchema>;

/** What the daemon reads from a set of meter values. */
export interface MeterReading {
  readonly powerW?: number;
  readonly currentA?: number;
  readonly energyKwh?: number;
  readonly socPercent?: number;
}

/** Line-to-neutral or line phases; a value with one of these is one phase's, not the total. */
const PER_PHASE = /^L[123](-N)?$/;

/**
 * Reads power (W), current (A), the energy register (kWh) and the state of charge from meter
 * values as OCPP 1.6 defines them: a sampledValue without a measurand is
 * Energy.Active.Import.Register, one without a unit is in Wh (energy) or W (power); kW and kWh are
 * scaled. OCPP 1.6 has no multiplier (that is 2.0.1's unitOfMeasure). Signed data, values that are
 * not numbers, units that do not fit the measurand and measurands other than these four are left
 * out. Of several meterValue entries, the latest (by timestamp, then order) wins for each quantity.
 * Per-phase power is summed when there is no total; per-phase current gives the highest phase.
 */
export function readMeterValues(meterValues: readonly MeterValue[]): MeterReading {
  const ordered = meterValues
    .map((entry, index) => ({ entry, index, at: Date.parse(entry.timestamp) }))
    .sort((a, b) => (Number.isNaN(a.at) || Number.isNaN(b.at) ? a.index - b.index : a.at - b.at || a.index - b.index));
  let reading: MeterReading = {};
  for (const { entry } of ordered) reading = { ...reading, ...readOne(entry.sampledValue) };
  return reading;
}

function readOne(values: readonly SampledValue[]): MeterReading {
  const totals = new Map<string, number>();
  const phases = new Map<string, number[]>();
  for (const sample of values) {
    if (sample.format === "SignedData") continue;
    if (
      sample.location !== undefined &&
      sample.location !== "Outlet" &&
      sample.location !== "Inlet" &&
      sample.location !== "EV"
    )
      continue;
    const measurand = sample.measurand ?? "Energy.Active.Import.Register";
    const text = sample.value.trim();
    const scaled = text === "" ? undefined : scale(measurand, sample.unit, Number(text));
    if (scaled === undefined) continue;
    if (sample.phase !== undefined && PER_PHASE.test(sample.phase)) {
      phases.set(measurand, [...(phases.get(measurand) ?? []), scaled]);
    } else if (sample.phase === undefined) {
      totals.set(measurand, scaled);
    }
  }
  const quantity = (measurand: string, combine: (values: number[]) => number): number | undefined => {
    const total = totals.get(measurand);
    if (total !== undefined) return total;
    const perPhase = phases.get(measurand);
    return perPhase === undefined ? undefined : combine(perPhase);
  };
  const powerW = quantity("Power.Active.Import", (v) => v.reduce((sum, x) => sum + x, 0));
  const currentA = quantity("Current.Import", (v) => Math.max(...v));
  const energyKwh = quantity("Energy.Active.Import.Register", (v) => v.reduce((sum, x) => sum + x, 0));
  const socPercent = quantity("SoC", (v) => Math.max(...v));
  return {
    ...(powerW === undefined ? {} : { powerW }),
    ...(currentA === undefined ? {} : { currentA }),
    ...(energyKwh === undefined ? {} : { energyKwh }),
    ...(socPercent === undefined ? {} : { socPercent }),
  };
}

/** The value in the daemon's unit for the measurand (W, A, kWh, %), or undefined when it does not fit. */
function scale(measurand: string, unit: string | undefined, value: number): number | undefined {
  if (!Number.isFinite(value)) return undefined;
  switch (measurand) {
    case "Power.Active.Import":
      if (unit === undefined || unit === "W") return value;
      return unit === "kW" ? value * 1000 : undefined;
    case "Current.Import":
      return unit === undefined || unit === "A" ? value : undefined;
    case "Energy.Active.Import.Register":
      if (unit === undefined || unit === "Wh") return value / 1000;
      return unit === "kWh" ? value : undefined;
    case "SoC":
      return unit === undefined || unit === "Percent" ? value : undefined;
    default:
      return undefined;
  }
}
