import type { Registers } from "./bank.js";
import type { RegisterFile } from "./register-file.js";

/*
 * The inverter's (and the EMS's) clock, HR 35-40: year since 2000, month, day, hour, minute,
 * second. It holds the local wall time of the house with no zone or offset of its own: the
 * captures show it (fixtures/local-captures: 26,5,28,19,4,53 read at 18:05 UTC on 28 May 2026,
 * in BST), and the public maps name the six registers so (givenergy-modbus's system_time).
 * Times here are "wall ms": the wall fields read as if they were UTC, so that arithmetic on
 * them needs no zone.
 */

export const CLOCK_FIRST = 35;
export const CLOCK_COUNT = 6;
export const CLOCK_REGISTERS: readonly number[] = Array.from(
  { length: CLOCK_COUNT },
  (_, index) => CLOCK_FIRST + index,
);

const YEAR_BASE = 2000;

/** The six words the registers hold for a wall time, HR 35 first. */
export function clockWords(wallMs: number): number[] {
  const at = new Date(wallMs);
  return [
    at.getUTCFullYear() - YEAR_BASE,
    at.getUTCMonth() + 1,
    at.getUTCDate(),
    at.getUTCHours(),
    at.getUTCMinutes(),
    at.getUTCSeconds(),
  ];
}

/** The wall time six words hold; undefined when they are no date (a device that never had its clock set reads zeros). */
export function wallOfWords(words: readonly (number | undefined)[]): number | undefined {
  const [year, month, day, hour, minute, second] = words;
  if (
    year === undefined ||
    month === undefined ||
    day === undefined ||
    hour === undefined ||
    minute === undefined ||
    second === undefined
  )
    return undefined;
  if (year > 99 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59)
    return undefined;
  const wallMs = Date.UTC(YEAR_BASE + year, month - 1, day, hour, minute, second);
  // 31 February and the like roll over in Date.UTC: no clock holds them.
  return new Date(wallMs).getUTCDate() === day ? wallMs : undefined;
}

/** The clock the holding registers read, as wall ms; undefined when they were not read or hold no date. */
export function decodeClock(registers: Registers): number | undefined {
  const holding = registers.holding;
  return wallOfWords(CLOCK_REGISTERS.map((register) => holding.u16(register)));
}

/** Wall ms as the text the state carries: `2026-10-25T01:00:00`, no zone (the device has none). */
export const wallText = (wallMs: number): string => new Date(wallMs).toISOString().slice(0, 19);

/** The text back as wall ms; undefined for anything else. */
export function wallOfText(text: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(text)) return undefined;
  const wallMs = Date.parse(`${text}Z`);
  return Number.isFinite(wallMs) ? wallMs : undefined;
}

export function encodeClock(file: RegisterFile, wallMs: number): void {
  const holding = file.holdingSide;
  clockWords(wallMs).forEach((word, index) => {
    holding.u16(CLOCK_FIRST + index, word);
  });
}

export const isClockRegister = (register: number): boolean =>
  register >= CLOCK_FIRST && register < CLOCK_FIRST + CLOCK_COUNT;
