import type { Registers, State } from "./bank.js";
import type { RegisterFile } from "./register-file.js";

/*
 * A single-phase inverter's fault and warning bits in words. Facts read from the public sources
 * (the words are our own spelling of their names; no code copied):
 *
 * - HR 223-224, the inverter's faults: one 32-bit value, HR 223 its high word. givenergy-modbus
 *   (dewet22/givenergy-modbus, givenergy_modbus/model/inverter.py `_inverter_fault_code` and
 *   `inverter_fault_messages`, validated there against the GivEnergy installer app v1.154.3,
 *   INVERTER_FAULT_CODE) and GivTCP (britkat1980/giv_tcp, givenergy_modbus_async/model/register.py
 *   `inverter_fault_code`, baseinverter.py `inverter_errors`) list the same bits. Their lists are
 *   written most significant bit first; the numbers below are the value's bit numbers.
 * - IR 57, the battery's (storage) warnings: 16 bits, least significant first, as givenergy-modbus
 *   names them (`_charger_warning_code`, the app's BATTERY_FAULT_CODE); bit 11 is reserved there.
 *   GivTCP's `battery_fault_code` is the same list read from the other end.
 *
 * IR 39 and IR 40 (the app's INVERTER_FAULT_CODE and INVERTER_WARNING_CODE words) are left out:
 * givenergy-modbus says their bits' meanings are not confirmed. The three-phase inverters keep
 * their faults elsewhere (IR 1300-1307, another layout): three-phase-faults.ts.
 */

export const INVERTER_FAULT_HIGH = 223;
export const INVERTER_FAULT_LOW = 224;
export const BATTERY_WARNING_REGISTER = 57;

/** Bit number of HR 223-224's 32-bit value → its words. */
const INVERTER_FAULT_BITS: Readonly<Record<number, string>> = {
  28: "Backup overload",
  25: "Grid monitor communication fault",
  24: "ARM communication fault",
  23: "Consistency fault",
  22: "EEPROM fault",
  15: "Inverter frequency fault",
  14: "Relay fault",
  13: "Inverter voltage fault",
  12: "Residual current (GFCI) fault",
  11: "Hall sensor fault",
  10: "DSP communication fault",
  9: "Bus over-voltage",
  8: "Inverter over-current",
  7: "No grid",
  6: "PV isolation fault",
  5: "Leakage current high",
  4: "DC injection high",
  3: "PV over-voltage",
  2: "Grid voltage fault",
  1: "Grid frequency fault",
  0: "Inverter temperature sensor (NTC) fault",
};

/** Bit number of IR 57 → its words. */
const BATTERY_WARNING_BITS: Readonly<Record<number, string>> = {
  0: "Battery too cold to charge",
  1: "Battery too cold to discharge",
  2: "Battery too hot to charge",
  3: "Battery too hot to discharge",
  4: "Battery under-voltage (BMS)",
  5: "Battery over-voltage (BMS)",
  6: "Battery short-circuit current (BMS)",
  7: "Battery discharge over-current (BMS)",
  8: "Charger temperature fault",
  9: "Battery temperature fault",
  10: "Battery BMS communication lost",
  12: "Battery soft start failed",
  13: "Battery voltage low",
  14: "Battery voltage high",
  15: "Energy meter communication lost",
};

/** Every fault word this table knows, inverter's first: what a simulated fault may be raised as. */
export const FAULT_WORDS: readonly string[] = [
  ...Object.values(INVERTER_FAULT_BITS),
  ...Object.values(BATTERY_WARNING_BITS),
];

const setBits = (value: number, table: Readonly<Record<number, string>>): string[] =>
  Object.entries(table)
    .filter(([bit]) => Math.floor(value / 2 ** Number(bit)) % 2 === 1)
    .sort(([a], [b]) => Number(b) - Number(a))
    .map(([, words]) => words);

/**
 * The active faults in words, the inverter's first, then the battery's; undefined while HR 223-224
 * were not read (a unit that does not answer them), so that no reading is not taken for "none".
 * A set bit the table does not name is still a fault: it shows as its number.
 */
export function decodeFaults(registers: Registers): string[] | undefined {
  const faults = registers.holding.u32(INVERTER_FAULT_HIGH, INVERTER_FAULT_LOW);
  if (faults === undefined) return undefined;
  const warnings = registers.u16(BATTERY_WARNING_REGISTER) ?? 0;
  return [
    ...namedOrNumbered(faults, INVERTER_FAULT_BITS, 32, "Inverter fault bit"),
    ...namedOrNumbered(warnings, BATTERY_WARNING_BITS, 16, "Battery warning bit"),
  ];
}

function namedOrNumbered(
  value: number,
  table: Readonly<Record<number, string>>,
  width: number,
  unnamed: string,
): string[] {
  const numbered: Record<number, string> = {};
  for (let bit = 0; bit < width; bit++) numbered[bit] = table[bit] ?? `${unnamed} ${bit}`;
  return setBits(value, numbered);
}

/** The inverse of `decodeFaults`: the bits of these words set, every other cleared. */
export function encodeFaults(file: RegisterFile, words: readonly string[]): void {
  const bitsOf = (table: Readonly<Record<number, string>>): number =>
    Object.entries(table)
      .filter(([, name]) => words.includes(name))
      .reduce((value, [bit]) => value + 2 ** Number(bit), 0);
  file.holdingSide.u32(INVERTER_FAULT_HIGH, bitsOf(INVERTER_FAULT_BITS), INVERTER_FAULT_LOW);
  file.u16(BATTERY_WARNING_REGISTER, bitsOf(BATTERY_WARNING_BITS));
}

/** The state key a decoded inverter carries its active faults under, words joined by FAULT_SEPARATOR. */
export const FAULTS_KEY = "faults";
const FAULT_SEPARATOR = "; ";

/** Active faults as a decoded state's value, whichever registers held them; nothing when they were not read. */
export function faultsAsState(faults: readonly string[] | undefined): State {
  return faults === undefined ? {} : { [FAULTS_KEY]: faults.join(FAULT_SEPARATOR) };
}

/** The active faults as a decoded single-phase state's value; nothing while their registers were not read. */
export function faultState(registers: Registers): State {
  return faultsAsState(decodeFaults(registers));
}

/** The active faults a decoded state carries; undefined when it carries none (not read). */
export function faultsOfState(state: State): string[] | undefined {
  const value = state[FAULTS_KEY];
  if (typeof value !== "string") return undefined;
  return value === "" ? [] : value.split(FAULT_SEPARATOR);
}
