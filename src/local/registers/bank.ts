/** The registers one device answered with so far, holding and input apart, raw 16-bit words. */
export interface Bank {
  readonly holding: ReadonlyMap<number, number>;
  readonly input: ReadonlyMap<number, number>;
}

/** A decoded value: numbers in the daemon's units, text for status and identity. */
export type StateValue = number | string;
export type State = Record<string, StateValue>;

type Space = "holding" | "input";

/** Typed reads of one bank; each returns undefined when a register it needs was never read. */
export class Registers {
  constructor(
    private readonly bank: Bank,
    private readonly space: Space = "input",
  ) {}

  /** The same bank read from the holding registers. */
  get holding(): Registers {
    return new Registers(this.bank, "holding");
  }

  has(register: number): boolean {
    return this.bank[this.space].has(register);
  }

  u16(register: number): number | undefined {
    return this.bank[this.space].get(register);
  }

  s16(register: number): number | undefined {
    const raw = this.u16(register);
    return raw === undefined ? undefined : raw >= 0x8000 ? raw - 0x10000 : raw;
  }

  /** Two registers, the high word first (the order every map here uses, the gateway's included). */
  u32(high: number, low = high + 1): number | undefined {
    const hi = this.u16(high);
    const lo = this.u16(low);
    return hi === undefined || lo === undefined ? undefined : hi * 0x10000 + lo;
  }

  s32(high: number, low = high + 1): number | undefined {
    const raw = this.u32(high, low);
    return raw === undefined ? undefined : raw >= 0x80000000 ? raw - 0x100000000 : raw;
  }

  /** ASCII, two characters a register (high byte first), NULs dropped. */
  text(first: number, count: number): string | undefined {
    let text = "";
    for (let register = first; register < first + count; register++) {
      const word = this.u16(register);
      if (word === undefined) return undefined;
      text += String.fromCharCode(word >> 8, word & 0xff);
    }
    return text.replace(/\0/g, "").trim();
  }

  /** Whether every register of `[first, first + count)` was read and any of them is not zero. */
  nonZero(first: number, count: number): boolean {
    let any = false;
    for (let register = first; register < first + count; register++) {
      const word = this.u16(register);
      if (word === undefined) return false;
      if (word !== 0) any = true;
    }
    return any;
  }
}

/** Rounds to the register's resolution so 0.1-scaled values print as 245.7, not 245.70000000000002. */
export function scaled(raw: number | undefined, factor: number): number | undefined {
  if (raw === undefined) return undefined;
  const decimals = Math.max(0, Math.round(-Math.log10(factor)));
  return Number((raw * factor).toFixed(decimals));
}

/** Sets each defined value; undefined means "not read", and the key is left out. */
export function put(state: State, values: Record<string, StateValue | undefined>): State {
  for (const [key, value] of Object.entries(values)) if (value !== undefined) state[key] = value;
  return state;
}

/** Status codes as the cloud names them (inverter IR 0, EMS IR 2040). */
export const STATUS_NAMES: Readonly<Record<number, string>> = {
  0: "WAITING",
  1: "NORMAL",
  2: "WARNING",
  3: "ERROR",
  4: "UPDATING",
  5: "BYPASS",
};

export function statusName(code: number | undefined): string | undefined {
  return code === undefined ? undefined : (STATUS_NAMES[code] ?? `UNKNOWN (${code})`);
}

export function sum(...values: (number | undefined)[]): number | undefined {
  return values.some((value) => value === undefined)
    ? undefined
    : values.reduce<number>((total, value) => total + (value ?? 0), 0);
}
