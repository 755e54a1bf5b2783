import type { Highs, InitOptions } from "highs";
import type { Battery } from "../optimiser/index.js";

/*
 * The exact optimum of a year under the bench's own meter (src/optimiser/energy.ts), as a
 * mixed-integer program solved with HiGHS (WebAssembly). Per slot t, all in kWh on the AC side:
 *   c charge ≤ chargeKw × h, d discharge ≤ dischargeKw × h, i import, e export ≤ exportLimitKw × h,
 *   k curtailed solar ≤ solar, s stored energy at the slot's end in [reserve, capacity];
 *   balance  i − e − c + d − k = load − solar
 *   storage  s_t = s_{t−1} + ηc·c − d / ηd
 * and, as the meter allows, binaries so that a slot never imports and exports, never charges and
 * discharges, and curtails only while exporting at the limit (the meter curtails nothing else).
 * Cost: Σ import price × i − export price × e; energy left at the end not credited.
 *
 * The binaries are added lazily, which stays exact: solve with binaries only on the slots in a set
 * (first none: the linear relaxation); if the answer breaks none of the three rules anywhere, it is
 * feasible for the full program and optimal for a relaxation of it, so optimal; otherwise the
 * slots that break a rule join the set and it is solved again.
 */

export interface ExactInput {
  readonly importPrices: readonly number[];
  readonly exportPrices: readonly number[];
  readonly load: readonly number[];
  readonly solar: readonly number[];
  readonly battery: Battery;
  /** The stored energy at the start, or "free" to let the program choose it at `startValue`. */
  readonly initialSocKwh: number | "free";
  readonly slotHours: number;
  /** GBP per kWh the starting energy costs when it is free (a block of a decomposition). */
  readonly startValue?: number;
  /** GBP per kWh the energy left at the end is worth (0: not credited). */
  readonly endValue?: number;
}

export interface ExactOptions {
  /** "at-limit" as the meter does; "free" lets the plan throw solar away whenever it pays (a looser bound). */
  readonly curtail: "at-limit" | "free";
  /** Binaries on every slot from the start instead of lazily (for checking the lazy path). */
  readonly allBinaries?: boolean;
  /** Told after each solve: the round, the slots carrying binaries, the slots that broke a rule, the ms it took. */
  readonly onRound?: (round: { round: number; binarySlots: number; broken: number; ms: number }) => void;
  /**
   * Wall-clock seconds one program may take over all its rounds; past it, ExactTimeoutError. Where
   * many schedules cost the same (a fixed export price above the cheap import price), branch and
   * bound can run for hours on a week.
   */
  readonly timeLimitSeconds?: number;
  /** Told after each block of a decomposition (exact-blocks.ts): the half-hours settled so far. */
  readonly onBlock?: (doneSlots: number) => void;
}

export interface ExactSlot {
  readonly chargeKwh: number;
  readonly dischargeKwh: number;
  readonly importKwh: number;
  readonly exportKwh: number;
  readonly curtailKwh: number;
  /** Stored energy at the slot's end. */
  readonly socKwh: number;
}

export interface ExactResult {
  /** GBP: import cost less export income, without the start and end values. */
  readonly cost: number;
  /** The program's objective: the cost plus the starting energy at startValue less the end at endValue. */
  readonly objective: number;
  /** The stored energy at the start (chosen when it was free). */
  readonly startSocKwh: number;
  /** The linear relaxation's cost (no binaries): a lower bound. */
  readonly relaxedCost: number;
  readonly slots: readonly ExactSlot[];
  /** Solves run (the relaxation first). */
  readonly rounds: number;
  /** Slots that carried binaries in the last solve. */
  readonly binarySlots: number;
  readonly solveMs: number;
}

const EPS = 1e-6;

/** Thrown when the solver is not installed: highs is a development dependency, not the daemon's. */
export class SolverMissingError extends Error {}

/** Thrown when a program does not finish within its timeLimitSeconds. */
export class ExactTimeoutError extends Error {}

/**
 * HiGHS, loaded on first use: only the exact optimum needs it, and an installation without the
 * package still runs every other policy. The package's types describe its CommonJS build;
 * imported as ES module, its default is the loader itself.
 */
async function loadHighs(): Promise<Highs> {
  let loader: (options?: InitOptions) => Promise<Highs>;
  try {
    const module: { default: unknown } = await import("highs");
    loader = module.default as (options?: InitOptions) => Promise<Highs>;
  } catch (error) {
    throw new SolverMissingError(
      `the exact optimum needs highs, the HiGHS solver package (npm install highs): ${(error as Error).message}`,
    );
  }
  return loader();
}
let loaded: Promise<Highs> | undefined;
const solver = (): Promise<Highs> => {
  const pending = loaded ?? loadHighs();
  loaded = pending;
  return pending;
};

const num = (value: number): string => {
  const text = value.toFixed(9).replace(/\.?0+$/, "");
  return text === "-0" ? "0" : text;
};
const term = (coefficient: number, name: string): string =>
  coefficient < 0 ? `- ${num(-coefficient)} ${name}` : `+ ${num(coefficient)} ${name}`;

/** The program in CPLEX LP format, with binaries on the slots in `binary`. */
export function exactLp(input: ExactInput, options: ExactOptions, binary: ReadonlySet<number>): string {
  const { battery, slotHours } = input;
  const slots = input.load.length;
  const maxIn = battery.chargeKw * slotHours;
  const maxOut = battery.dischargeKw * slotHours;
  const exportCap = battery.exportLimitKw === undefined ? undefined : battery.exportLimitKw * slotHours;
  const reserve = (battery.reservePercent / 100) * battery.capacityKwh;
  const objective: string[] = [];
  const rows: string[] = [];
  const bounds: string[] = [];
  const binaries: string[] = [];
  for (let t = 0; t < slots; t++) {
    const load = input.load[t] as number;
    const solar = input.solar[t] as number;
    objective.push(
      ` ${term(input.importPrices[t] as number, `i${t}`)} ${term(-(input.exportPrices[t] as number), `e${t}`)}`,
    );
    rows.push(` b${t}: i${t} - e${t} - c${t} + d${t} - k${t} = ${num(load - solar)}`);
    const free = input.initialSocKwh === "free";
    const previous = t > 0 ? ` - s${t - 1}` : free ? " - start" : "";
    const rhs = t === 0 && input.initialSocKwh !== "free" ? input.initialSocKwh : 0;
    rows.push(
      ` s${t}_: s${t}${previous} ${term(-battery.chargeEfficiency, `c${t}`)} ${term(1 / battery.dischargeEfficiency, `d${t}`)} = ${num(rhs)}`,
    );
    bounds.push(` 0 <= c${t} <= ${num(maxIn)}`, ` 0 <= d${t} <= ${num(maxOut)}`, ` 0 <= k${t} <= ${num(solar)}`);
    // Without an export limit, the most a slot can export without importing: else, where export
    // pays more than import, the relaxation would import and export without end (unbounded).
    const exportBound = exportCap ?? Math.max(0, solar - load) + maxOut;
    bounds.push(` 0 <= e${t} <= ${num(exportBound)}`);
    bounds.push(` ${num(reserve)} <= s${t} <= ${num(battery.capacityKwh)}`);
    if (!binary.has(t)) continue;
    // The most a slot can import: the load, plus a full charge, with no solar.
    const maxImport = load + maxIn;
    const maxExport = Math.min(exportCap ?? Number.POSITIVE_INFINITY, Math.max(0, solar - load) + maxOut);
    rows.push(
      ` iu${t}: i${t} - ${num(maxImport)} u${t} <= 0`,
      ` eu${t}: e${t} + ${num(maxExport)} u${t} <= ${num(maxExport)}`,
    );
    rows.push(` cw${t}: c${t} - ${num(maxIn)} w${t} <= 0`, ` dw${t}: d${t} + ${num(maxOut)} w${t} <= ${num(maxOut)}`);
    binaries.push(`u${t}`, `w${t}`);
    if (options.curtail === "at-limit" && solar > 0) {
      rows.push(` kz${t}: k${t} - ${num(solar)} z${t} <= 0`);
      if (exportCap !== undefined) rows.push(` ez${t}: e${t} - ${num(exportCap)} z${t} >= 0`);
      binaries.push(`z${t}`);
    }
  }
  if (input.initialSocKwh === "free") {
    objective.push(` ${term(input.startValue ?? 0, "start")}`);
    bounds.push(` ${num(reserve)} <= start <= ${num(battery.capacityKwh)}`);
  }
  if (input.endValue) objective.push(` ${term(-input.endValue, `s${slots - 1}`)}`);
  const lines = ["Minimize", " cost:", ...objective, "Subject To", ...rows, "Bounds", ...bounds];
  if (binaries.length > 0) lines.push("Binaries", ...chunk(binaries, 20).map((names) => ` ${names.join(" ")}`));
  lines.push("End");
  return lines.join("\n");
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

/** The slots whose solution breaks one of the meter's rules. */
export function violations(input: ExactInput, options: ExactOptions, slots: readonly ExactSlot[]): number[] {
  const exportCap =
    input.battery.exportLimitKw === undefined
      ? Number.POSITIVE_INFINITY
      : input.battery.exportLimitKw * input.slotHours;
  const out: number[] = [];
  slots.forEach((slot, t) => {
    const both = (a: number, b: number) => a > EPS && b > EPS;
    const curtailBelowLimit =
      options.curtail === "at-limit" && slot.curtailKwh > EPS && slot.exportKwh < exportCap - EPS;
    if (both(slot.importKwh, slot.exportKwh) || both(slot.chargeKwh, slot.dischargeKwh) || curtailBelowLimit)
      out.push(t);
  });
  return out;
}

export async function exactOptimum(input: ExactInput, options: ExactOptions): Promise<ExactResult> {
  const highs = await solver();
  const started = performance.now();
  const slotCount = input.load.length;
  const binary = new Set<number>(options.allBinaries ? Array.from({ length: slotCount }, (_, t) => t) : []);
  let relaxedCost: number | undefined;
  for (let round = 1; ; round++) {
    const roundStarted = performance.now();
    const left =
      options.timeLimitSeconds === undefined ? undefined : options.timeLimitSeconds - (roundStarted - started) / 1000;
    const timedOut = () =>
      new ExactTimeoutError(
        `a ${slotCount}-half-hour mixed-integer program did not finish in ${options.timeLimitSeconds} s (${binary.size} half-hours with binaries, round ${round})`,
      );
    if (left !== undefined && left <= 0) throw timedOut();
    const result = highs.solve(exactLp(input, options, binary), {
      output_flag: false,
      mip_rel_gap: 0,
      mip_abs_gap: 1e-9,
      // HiGHS's presolve spent most of the time on these programs (a week of the planner-year with
      // negative prices: 10 s with it, 1.7 s without, the same optimum); they are small and sparse.
      presolve: "off",
      ...(left === undefined ? {} : { time_limit: left }),
    });
    if (result.Status === "Time limit reached") throw timedOut();
    if (result.Status !== "Optimal") throw new Error(`exact optimum: HiGHS ended with ${result.Status}`);
    const value = (name: string): number => {
      const column = result.Columns[name];
      return column ? column.Primal : 0;
    };
    const slots: ExactSlot[] = Array.from({ length: slotCount }, (_, t) => ({
      chargeKwh: value(`c${t}`),
      dischargeKwh: value(`d${t}`),
      importKwh: value(`i${t}`),
      exportKwh: value(`e${t}`),
      curtailKwh: value(`k${t}`),
      socKwh: value(`s${t}`),
    }));
    const objective = result.ObjectiveValue;
    relaxedCost ??= objective;
    const broken = violations(input, options, slots);
    options.onRound?.({ round, binarySlots: binary.size, broken: broken.length, ms: performance.now() - roundStarted });
    if (broken.length === 0) {
      const cost = slots.reduce(
        (sum, slot, t) =>
          sum + slot.importKwh * (input.importPrices[t] as number) - slot.exportKwh * (input.exportPrices[t] as number),
        0,
      );
      return {
        cost,
        objective,
        startSocKwh: input.initialSocKwh === "free" ? value("start") : input.initialSocKwh,
        relaxedCost: relaxedCost ?? objective,
        slots,
        rounds: round,
        binarySlots: binary.size,
        solveMs: performance.now() - started,
      };
    }
    for (const t of broken) binary.add(t);
  }
}

/**
 * The linear relaxation (no binaries) with the value of a kWh stored at the start of each slot:
 * the negated dual of the slot's storage row (one more kWh in store there lowers the cost by it).
 */
export async function relaxedValues(input: ExactInput): Promise<{ cost: number; valuePerKwh: number[] }> {
  const highs = await solver();
  const result = highs.solve(exactLp(input, { curtail: "free" }, new Set()), { output_flag: false });
  if (result.Status !== "Optimal") throw new Error(`exact optimum: HiGHS ended with ${result.Status}`);
  const rows = result.Rows;
  const valuePerKwh = input.load.map((_, t) => {
    const row = rows[2 * t + 1];
    return row && "Dual" in row ? -row.Dual : 0;
  });
  return { cost: result.ObjectiveValue, valuePerKwh };
}
