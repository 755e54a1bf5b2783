import type { Bank } from "./bank.js";

type Space = "holding" | "input";

/**
 * The writing side of `Registers` (bank.ts): a device's register file, filled from values in the
 * daemon's units with the same word layouts the reads undo (signed 16-bit as two's complement,
 * 32-bit high word first, ASCII two characters a register). Out-of-range values are clamped to
 * what the register holds, so a wrong value shows as a disagreement, not as a wrapped number.
 */
export class RegisterFile implements Bank {
  constructor(
    private readonly space: Space = "input",
    readonly holding = new Map<number, number>(),
    readonly input = new Map<number, number>(),
  ) {}

  /** The same file, written in the holding registers. */
  get holdingSide(): RegisterFile {
    return new RegisterFile("holding", this.holding, this.input);
  }

  private set(register: number, word: number): this {
    this[this.space].set(register, word);
    return this;
  }

  u16(register: number, value: number | undefined): this {
    if (value === undefined) return this;
    return this.set(register, clamp(Math.round(value), 0, 0xffff));
  }

  s16(register: number, value: number | undefined): this {
    if (value === undefined) return this;
    const clamped = clamp(Math.round(value), -0x8000, 0x7fff);
    return this.set(register, clamped < 0 ? clamped + 0x10000 : clamped);
  }

  /** Two registers, the high word first. */
  u32(high: number, value: number | undefined, low = high + 1): this {
    if (value === undefined) return this;
    const clamped = clamp(Math.round(value), 0, 0xffffffff);
    this.set(high, Math.floor(clamped / 0x10000));
    return this.set(low, clamped % 0x10000);
  }

  s32(high: number, value: number | undefined, low = high + 1): this {
    if (value === undefined) return this;
    const clamped = clamp(Math.round(value), -0x80000000, 0x7fffffff);
    return this.u32(high, clamped < 0 ? clamped + 0x100000000 : clamped, low);
  }

  /** ASCII, two characters a register, NUL-padded to `count` registers. */
  text(first: number, count: number, value: string | undefined): this {
    if (value === undefined) return this;
    for (let index = 0; index < count; index++) {
      const high = value.charCodeAt(index * 2) || 0;
      const low = value.charCodeAt(index * 2 + 1) || 0;
      this.set(first + index, ((high & 0xff) << 8) | (low & 0xff));
    }
    return this;
  }
}

/** The raw register value of `value` at the register's resolution (the inverse of `scaled`). */
export function unscaled(value: number | undefined, factor: number): number | undefined {
  return value === undefined ? undefined : Math.round(value / factor);
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
