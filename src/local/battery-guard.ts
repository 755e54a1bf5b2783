/**
 * The battery chain can deliver corrupt values with a valid CRC: the dongle re-frames what the
 * packs' sub-chain garbled. Real quantities cannot move faster than physics lets them between two
 * reads, nor leave their physical range, so a bank of IR 60-119 from a battery device is rejected
 * when a value lies outside what a cell or sensor can read, when at least two independent
 * quantities jump further than they can, or when a register that never changes (cell count,
 * firmware, serial) does. One jump alone is accepted: a MOSFET sensor does step under load.
 * Thresholds are in raw register units (for the LV packs the public corpus analysis of these
 * captures found them to separate every corrupt bank from every clean one; for the HV stack they
 * are the same physics in its layout, and pass every bank of the HV captures).
 */
interface Rule {
  readonly name: string;
  readonly registers: readonly number[];
  /** Compared as one 32-bit value (high word first) when true. */
  readonly pair?: boolean;
  /** Compares the high byte only (the BCU keeps its charge level there). */
  readonly highByte?: boolean;
  /** Raw values above this are no reading (the BMUs' unused temperature words hold text). */
  readonly ignoreAbove?: number;
  readonly limit: number;
}

/** Where a register's raw value must lie; `zero` allows an empty slot (no cell, no sensor). */
interface Bound {
  readonly name: string;
  readonly registers: readonly number[];
  readonly min: number;
  readonly max: number;
  readonly signed?: boolean;
  readonly highByte?: boolean;
  readonly zero?: boolean;
}

export interface BankProfile {
  readonly rules: readonly Rule[];
  readonly bounds: readonly Bound[];
  /** Groups of sensors that can never all read exactly 0 at once (the captured dropouts do). */
  readonly notAllZero?: readonly (readonly number[])[];
  /** Registers that never change while the same device answers. */
  readonly constant: readonly number[];
  /** Registers of which one is non-zero when a device answers (an empty slot answers with them all 0, and is not judged until a device has answered). */
  readonly present: readonly number[];
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** A lithium cell reads 2.0-4.5 V or, in an empty slot, 0. */
const CELL_MV = { min: 2000, max: 4500, zero: true } as const;
/** -40 to 90 °C in tenths. */
const SENSOR_DECI_C = { min: -400, max: 900, signed: true } as const;

/** An LV pack at 0x32-0x37. */
export const LV_PACK: BankProfile = {
  rules: [
    ...range(60, 75).map((register) => ({ name: "cell voltage", registers: [register], limit: 300 })),
    ...[76, 77, 78, 79, 103, 104].map((register) => ({ name: "cell temperature", registers: [register], limit: 50 })),
    { name: "MOSFET temperature", registers: [81], limit: 200 },
    { name: "cells' sum", registers: [80], limit: 1600 },
    { name: "charge level", registers: [100], limit: 10 },
    { name: "lifetime discharge", registers: [105], limit: 50 },
    { name: "lifetime charge", registers: [106], limit: 50 },
    { name: "pack voltage", registers: [82, 83], pair: true, limit: 4000 },
    ...[84, 86, 88, 101].map((high) => ({ name: "capacity", registers: [high, high + 1], pair: true, limit: 1500 })),
  ],
  bounds: [
    { name: "cell voltage", registers: range(60, 75), ...CELL_MV },
    { name: "cell temperature", registers: [76, 77, 78, 79], ...SENSOR_DECI_C },
    { name: "charge level", registers: [100], min: 0, max: 100 },
  ],
  // The captured AC-coupled plant's packs drop every temperature and the MOSFET's to 0 for minutes.
  notAllZero: [[76, 77, 78, 79, 81]],
  constant: [97, 98, 110, 111, 112, 113, 114],
  present: range(110, 114),
};

/**
 * An HV module (BMU) at 0x50-0x5F: 24 cells from IR 60, temperatures from IR 90 (the unused words
 * of the captured modules hold serial text, above any temperature, and are not judged), serial
 * IR 114-118.
 */
export const HV_MODULE: BankProfile = {
  rules: [
    ...range(60, 83).map((register) => ({ name: "cell voltage", registers: [register], limit: 300 })),
    ...range(90, 113).map((register) => ({
      name: "cell temperature",
      registers: [register],
      limit: 50,
      ignoreAbove: 1000,
    })),
  ],
  bounds: [
    { name: "cell voltage", registers: range(60, 83), ...CELL_MV },
    { name: "cell temperature", registers: range(90, 113), min: -400, max: 0x7fff, signed: true },
  ],
  constant: range(114, 118),
  present: range(60, 83),
};

/** An HV stack's BCU at 0x70-0x7F, IR 60-119: its charge level (IR 80's high byte), health, voltage and module count. */
export const HV_STACK: BankProfile = {
  rules: [
    { name: "charge level", registers: [80], highByte: true, limit: 10 },
    { name: "stack voltage", registers: [73], limit: 400 },
    { name: "state of health", registers: [81], limit: 5 },
    { name: "remaining capacity", registers: [99], limit: 200 },
  ],
  bounds: [
    { name: "charge level", registers: [80], min: 0, max: 100, highByte: true },
    { name: "state of health", registers: [81], min: 0, max: 100 },
  ],
  constant: [64],
  present: range(60, 119),
};

const signed16 = (raw: number): number => (raw >= 0x8000 ? raw - 0x10000 : raw);

export interface Verdict {
  readonly accept: boolean;
  /** What moved impossibly, for the warning. */
  readonly reasons: readonly string[];
}

/** Whether `next` can follow `previous` under the profile's physics and constants. */
export function judgeBank(
  profile: BankProfile,
  previous: ReadonlyMap<number, number>,
  next: ReadonlyMap<number, number>,
): Verdict {
  const reasons: string[] = [];
  const value = (bank: ReadonlyMap<number, number>, rule: Rule): number | undefined => {
    const words = rule.registers.map((register) => bank.get(register));
    if (words.some((word) => word === undefined)) return undefined;
    const [high = 0, low = 0] = words as number[];
    if (rule.pair) return high * 0x10000 + low;
    if (rule.highByte) return high >> 8;
    const single = signed16(high);
    return rule.ignoreAbove !== undefined && single > rule.ignoreAbove ? undefined : single;
  };
  let physics = 0;
  for (const rule of profile.rules) {
    const before = value(previous, rule);
    const after = value(next, rule);
    if (before === undefined || after === undefined) continue;
    if (Math.abs(after - before) > rule.limit) {
      physics++;
      reasons.push(`${rule.name} IR ${rule.registers[0]} ${before} -> ${after}`);
    }
  }
  const constantChanged = profile.constant.filter((register) => {
    const before = previous.get(register);
    const after = next.get(register);
    return before !== undefined && after !== undefined && before !== after;
  });
  for (const register of constantChanged) reasons.push(`constant IR ${register} changed`);
  return { accept: physics < 2 && constantChanged.length === 0, reasons };
}

/** The LV packs' judgement (kept for its callers). */
export function judgeBatteryBank(previous: ReadonlyMap<number, number>, next: ReadonlyMap<number, number>): Verdict {
  return judgeBank(LV_PACK, previous, next);
}

/** The values of a bank that no cell or sensor can read. */
export function outOfBounds(profile: BankProfile, bank: ReadonlyMap<number, number>): string[] {
  const reasons: string[] = [];
  for (const bound of profile.bounds) {
    for (const register of bound.registers) {
      const raw = bank.get(register);
      if (raw === undefined) continue;
      if (bound.zero && raw === 0) continue;
      const value = bound.highByte ? raw >> 8 : bound.signed ? signed16(raw) : raw;
      if (value < bound.min || value > bound.max) reasons.push(`${bound.name} IR ${register} reads ${value}`);
    }
  }
  for (const group of profile.notAllZero ?? []) {
    if (group.every((register) => bank.get(register) === 0))
      reasons.push(`temperatures IR ${group.join(", ")} all read 0`);
  }
  return reasons;
}

export type GuardSkip = "battery-jump" | "battery-bounds";

export interface GuardVerdict {
  readonly accept: boolean;
  /** The kind of skip when rejected. */
  readonly skip?: GuardSkip;
  readonly reasons: readonly string[];
}

/** Consecutive reads that agree with each other, all rejected against the baseline, that make a new baseline. */
export const REPEATS_FOR_A_CHANGE = 3;

/**
 * One battery device's guard across reads. A read out of bounds is rejected. Until two reads agree
 * there is no baseline: the first read in bounds is published but trusted by nothing, and a later
 * one becomes the baseline only when it agrees with an earlier unconfirmed read (so a corrupt
 * first read is outvoted, not kept); meanwhile a read that disagrees with what was published is
 * held back. Against a baseline, a read that moves impossibly is rejected, unless it is the
 * `REPEATS_FOR_A_CHANGE`th consecutive such read and they all agree with each other: then the
 * device really changed (a swapped pack, new firmware, a long gap) and it is the new baseline.
 */
export class BatteryGuard {
  private baseline: ReadonlyMap<number, number> | undefined;
  private unconfirmed: ReadonlyMap<number, number>[] = [];
  private rejectedRun: ReadonlyMap<number, number>[] = [];

  constructor(
    private readonly profile: BankProfile,
    private readonly repeats = REPEATS_FOR_A_CHANGE,
  ) {}

  /** Whether a baseline has been confirmed by two agreeing reads. */
  get confirmed(): boolean {
    return this.baseline !== undefined;
  }

  judge(next: ReadonlyMap<number, number>): GuardVerdict {
    // An empty slot is not judged, until a device has answered there: then losing its serial is corruption too.
    const seen = this.baseline !== undefined || this.unconfirmed.length > 0;
    if (!seen && !this.profile.present.some((register) => (next.get(register) ?? 0) !== 0))
      return { accept: true, reasons: [] };
    const bounds = outOfBounds(this.profile, next);
    if (bounds.length > 0) return { accept: false, skip: "battery-bounds", reasons: bounds };
    if (this.baseline === undefined) return this.judgeUnconfirmed(next);
    const verdict = judgeBank(this.profile, this.baseline, next);
    if (verdict.accept) {
      this.baseline = next;
      this.rejectedRun = [];
      return { accept: true, reasons: [] };
    }
    const last = this.rejectedRun.at(-1);
    this.rejectedRun =
      last !== undefined && judgeBank(this.profile, last, next).accept ? [...this.rejectedRun, next] : [next];
    if (this.rejectedRun.length >= this.repeats) {
      this.baseline = next;
      this.rejectedRun = [];
      return {
        accept: true,
        reasons: [`accepted after ${this.repeats} agreeing reads: ${verdict.reasons.join(", ")}`],
      };
    }
    return { accept: false, skip: "battery-jump", reasons: verdict.reasons };
  }

  private judgeUnconfirmed(next: ReadonlyMap<number, number>): GuardVerdict {
    const agreeing = this.unconfirmed.find((earlier) => judgeBank(this.profile, earlier, next).accept);
    if (agreeing !== undefined) {
      this.baseline = next;
      this.unconfirmed = [];
      return { accept: true, reasons: [] };
    }
    const first = this.unconfirmed.length === 0;
    const reasons =
      this.unconfirmed.length > 0 ? judgeBank(this.profile, this.unconfirmed.at(-1) ?? next, next).reasons : [];
    this.unconfirmed = [...this.unconfirmed, next].slice(-2);
    return first ? { accept: true, reasons: [] } : { accept: false, skip: "battery-jump", reasons };
  }
}
