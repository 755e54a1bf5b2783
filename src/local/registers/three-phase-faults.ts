import type { Registers, State } from "./bank.js";
import { faultsAsState } from "./faults.js";
import type { RegisterFile } from "./register-file.js";

/*
 * A three-phase inverter's fault and warning words, IR 1300-1307: eight 16-bit words, each bit a
 * fault, least significant bit first. Facts read from the public sources (the words are our own
 * spelling of their names; no code copied): givenergy-modbus (dewet22/givenergy-modbus,
 * givenergy_modbus/model/inverter_threephase.py `_inverter_fault_code2` and
 * `inverter_fault_codes_0..7`), whose tables it says were checked against the GivEnergy installer
 * app v1.154.3 (THREE_PHASE_HYBRID_FAULT_CODE_WORD_0..7), and GivTCP (britkat1980/giv_tcp,
 * givenergy_modbus_async/model/register.py `inverter_fault_code2`, threephase.py), which lists the
 * same names. The bit order is givenergy-modbus's: its commit 8a0b40b (#328) moved from most
 * significant bit first, as GivTCP still reads them, to least significant first, against the
 * installer app's enums. IR 1308 (parallel operation) is in neither model and is not read.
 *
 * A name both sources give twice (in two words) carries its register, so that each word here
 * names one bit.
 */

export const THREE_PHASE_FAULT_FIRST = 1300;
const WORD_COUNT = 8;

/** Register (IR 1300-1307) → bit → its words. */
const THREE_PHASE_FAULT_BITS: Readonly<Record<number, Readonly<Record<number, string>>>> = {
  1300: {
    0: "Battery voltage high (IR 1300)",
    2: "Bus 2 voltage high (ISR)",
    3: "Bus voltage high (ISR)",
    4: "Inverter over-current (TZ)",
    5: "Frequency unstable",
    6: "Buck-boost fault (ISR)",
    7: "BDC over-current",
    8: "Grid zero-crossing lost",
    12: "Grid phase 1 voltage fault",
    13: "Grid phase 2 voltage fault",
    14: "Grid phase 3 voltage fault",
    15: "Grid frequency out of range",
  },
  1301: {
    0: "Gateway communication fault",
    1: "Residual current (GFCI) damage",
    2: "Grid phase 1 voltage low",
    3: "Grid phase 1 voltage high",
    4: "Grid phase 2 voltage low",
    5: "Grid phase 2 voltage high",
    6: "Grid phase 3 voltage low",
    7: "Grid phase 3 voltage high",
    8: "Inverter over-current (ISR)",
    12: "Inverter phase 1 over-current (RMS)",
    13: "Inverter phase 2 over-current (RMS)",
    14: "Inverter phase 3 over-current (RMS)",
    15: "No grid connection",
  },
  1302: {
    0: "Grid frequency low",
    1: "Grid frequency high",
    2: "Grid voltage imbalance",
    3: "AC PLL fault",
    4: "Overload",
    5: "Backflow timeout",
    7: "Grid-connected voltage or frequency out of range",
    8: "EPS phase 1 voltage lost",
    9: "EPS phase 2 voltage lost",
    10: "EPS phase 3 voltage lost",
    11: "EPS bus voltage low",
    12: "EPS overload",
    13: "EPS voltage high",
    14: "DC voltage high",
    15: "Battery over-current",
  },
  1303: {
    0: "Battery reversed",
    1: "Battery open circuit",
    2: "Battery voltage low",
    4: "Bus 2 voltage abnormal",
    5: "Buck-boost soft start failed",
    6: "Battery voltage high (IR 1303)",
    8: "BMS error",
    9: "BMS communication fault",
    13: "Battery sleeping",
    14: "Lead-acid temperature sensor (NTC) open",
    15: "BMS forbids power",
  },
  1304: {
    5: "PV1 voltage low",
    6: "PV2 voltage low",
  },
  1305: {
    0: "DC injection high",
    1: "PV isolation low",
    2: "Temperature sensor (NTC) open (IR 1305)",
    3: "Bus voltage high",
    4: "PV voltage high (IR 1305)",
    5: "Boost over-temperature",
    6: "Buck-boost over-temperature",
    7: "Inverter over-temperature",
    8: "EPS output short circuit",
    9: "Auto test fault",
    10: "Model initialisation fault",
    11: "Relay fault",
    12: "Bus voltage unbalanced",
    13: "DSP firmware mismatch",
    14: "PV1 short circuit",
    15: "PV2 short circuit",
  },
  1306: {
    0: "PV voltage high (IR 1306)",
    1: "External device fault",
    2: "Acom fault",
    3: "Bcom fault",
    4: "Master forced inverter fault",
    5: "Master forced SP fault",
    6: "Residual current (GFCI) high",
    7: "Virtual load over-temperature",
    8: "Internal communication fault 3",
    9: "Grid consistency fault",
    10: "EPS connected to the grid",
    11: "Internal over-temperature",
    12: "Fan fault",
    13: "Hardware mismatch",
  },
  1307: {
    0: "CT clamp live and neutral reversed",
    1: "Pairing timeout",
    2: "Meter communication lost",
    6: "Battery over-temperature",
    7: "Battery overload",
    8: "Battery full",
    9: "Battery needs charging",
    10: "BMS warning",
    11: "Battery weak",
    12: "Battery low power",
    13: "Temperature sensor (NTC) open (IR 1307)",
    14: "Fan warning",
  },
};

const REGISTERS = Array.from({ length: WORD_COUNT }, (_, index) => THREE_PHASE_FAULT_FIRST + index);

/** Every three-phase fault word, IR 1300 first: what a simulated three-phase fault may be raised as. */
export const THREE_PHASE_FAULT_WORDS: readonly string[] = REGISTERS.flatMap((register) =>
  Object.values(THREE_PHASE_FAULT_BITS[register] ?? {}),
);

/**
 * The active faults in words, IR 1300 first and each word's highest bit first; undefined while
 * IR 1300-1307 were not read, so that no reading is not taken for "none". A set bit no source
 * names is still a fault: it shows as its register and bit.
 */
export function decodeThreePhaseFaults(registers: Registers): string[] | undefined {
  const words = REGISTERS.map((register) => registers.u16(register));
  if (words.some((word) => word === undefined)) return undefined;
  return REGISTERS.flatMap((register, index) => {
    const word = words[index] ?? 0;
    const named = THREE_PHASE_FAULT_BITS[register] ?? {};
    const active: string[] = [];
    for (let bit = 15; bit >= 0; bit--)
      if (Math.floor(word / 2 ** bit) % 2 === 1)
        active.push(named[bit] ?? `Three-phase fault IR ${register} bit ${bit}`);
    return active;
  });
}

/** The inverse of `decodeThreePhaseFaults`: the bits of these words set, every other cleared. */
export function encodeThreePhaseFaults(file: RegisterFile, words: readonly string[]): void {
  for (const register of REGISTERS) {
    const word = Object.entries(THREE_PHASE_FAULT_BITS[register] ?? {})
      .filter(([, name]) => words.includes(name))
      .reduce((value, [bit]) => value + 2 ** Number(bit), 0);
    file.u16(register, word);
  }
}

/** The active faults as a decoded three-phase state's value; nothing while their registers were not read. */
export function threePhaseFaultState(registers: Registers): State {
  return faultsAsState(decodeThreePhaseFaults(registers));
}
