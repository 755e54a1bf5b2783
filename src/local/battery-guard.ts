/**
 * The battery bus can deliver corrupt values with a valid CRC: the dongle re-frames what the
 * packs' sub-bus garbled. Real quantities cannot move faster than physics lets them between two
 * reads, so a bank of IR 60-119 from an LV pack is rejected when at least two independent
 * quantities jump further than they can, or when a register that never changes (cell count, BMS
 * firmware, serial) does. One jump alone is accepted: a MOSFET sensor does step under load.
 * Thresholds are in raw register units (the public corpus analysis of these captures found them
 * to separate every corrupt bank from every clean one).
 */
interface Rule {
  readonly name: string;
  readonly registers: readonly number[];
  /** Compared as one 32-bit value (high word first) when true. */
  readonly pair?: boolean;
  readonly limit: number;
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

const RULES: readonly Rule[] = [
  ...range(60, 75).map((register) => ({ name: "cell voltage", registers: [register], limit: 300 })),
  ...[76, 77, 78, 79, 103, 104].map((register) => ({ name: "cell temperature", registers: [register], limit: 50 })),
  { name: "MOSFET temperature", registers: [81], limit: 200 },
  { name: "cells' sum", registers: [80], limit: 1600 },
  { name: "charge level", registers: [100], limit: 10 },
  { name: "lifetime discharge", registers: [105], limit: 50 },
  { name: "lifetime charge", registers: [106], limit: 50 },
  { name: "pack voltage", registers: [82, 83], pair: true, limit: 4000 },
  ...[84, 86, 88, 101].map((high) => ({ name: "capacity", registers: [high, high + 1], pair: true, limit: 1500 })),
];

/** Cell count, BMS firmware, serial. */
const CONSTANT = [97, 98, 110, 111, 112, 113, 114];

const signed16 = (raw: number): number => (raw >= 0x8000 ? raw - 0x10000 : raw);

export interface Verdict {
  readonly accept: boolean;
  /** What moved impossibly, for the warning. */
  readonly reasons: readonly string[];
}

export function judgeBatteryBank(previous: ReadonlyMap<number, number>, next: ReadonlyMap<number, number>): Verdict {
  const reasons: string[] = [];
  const value = (bank: ReadonlyMap<number, number>, rule: Rule): number | undefined => {
    const words = rule.registers.map((register) => bank.get(register));
    if (words.some((word) => word === undefined)) return undefined;
    const [high = 0, low = 0] = words as number[];
    return rule.pair ? high * 0x10000 + low : signed16(high);
  };
  let physics = 0;
  for (const rule of RULES) {
    const before = value(previous, rule);
    const after = value(next, rule);
    if (before === undefined || after === undefined) continue;
    if (Math.abs(after - before) > rule.limit) {
      physics++;
      reasons.push(`${rule.name} IR ${rule.registers[0]} ${before} -> ${after}`);
    }
  }
  const constantChanged = CONSTANT.filter((register) => {
    const before = previous.get(register);
    const after = next.get(register);
    return before !== undefined && after !== undefined && before !== after;
  });
  for (const register of constantChanged) reasons.push(`constant IR ${register} changed`);
  return { accept: physics < 2 && constantChanged.length === 0, reasons };
}
