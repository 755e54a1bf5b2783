import type { Range } from "./ranges.js";

/*
 * HR 111/112 (battery charge and discharge limit) hold a C-rate in hundredths: the power is
 * word / 100 × capacity kWh × 1000 W (givenergy-modbus's battery_charge_limit; GivTCP's
 * conversion). This file is the ONE place that turns watts into those words and back; it needs
 * the battery's capacity, so the limits are offered only where the LAN knows it (HR 55).
 */

/** HR 111: the battery charge limit; HR 112: the discharge limit. */
export const CHARGE_LIMIT_REGISTER = 111;
export const DISCHARGE_LIMIT_REGISTER = 112;

/**
 * The words the limits take: 0-50 (0.5 C), what the public map calls meaningful and every capture
 * holds (Gen2 16/50, All-in-One 50/50 and 38/38, AC-coupled 50/50); it accepts up to 100.
 */
export const C_RATE_WORDS: Range = { min: 0, max: 50 };

/** The watts one register step is: capacity kWh × 10 (capacity is to 0.1 kWh, so a whole number). */
export const wattsPerStep = (capacityKwh: number): number => Math.round(capacityKwh * 10);

/** The word nearest to `watts` (a requested power between two steps goes to the nearer). */
export const wordOfWatts = (watts: number, step: number): number => Math.round(watts / step);

/** The watts a word holds. */
export const wattsOfWord = (word: number, step: number): number => word * step;

/** The watts the limits take on a battery of this step: 0 to the top word's. */
export const rateWattsRange = (step: number): Range => ({ min: 0, max: wattsOfWord(C_RATE_WORDS.max, step) });

/*
 * The three-phase's battery power limits are not a C-rate: HR 1110 (ChargePowerRate) and HR 1108
 * (DischargePowerRate) hold 1-100 % (the vendor's register list v4.1.6, its app v4.0.7 and its
 * installer app, as givenergy-modbus inventories them). GivTCP makes watts of them as a share of
 * the battery's top rate, which it takes as 25 A at 80 V per HV module (read.py: batmaxrate =
 * 25 * 80 * number_batteries); the stack's BCU gives 25.0 A as its current limits (IR 104/105) in
 * every capture. The same watts here give the same word GivTCP writes.
 */

/** HR 1110: the three-phase's charge power rate; HR 1108: its discharge power rate. */
export const THREE_PHASE_CHARGE_RATE_REGISTER = 1110;
export const THREE_PHASE_DISCHARGE_RATE_REGISTER = 1108;

/** The words the three-phase's rates take: 1-100 % (the register list, the app, and GivTCP's check). */
export const POWER_RATE_WORDS: Range = { min: 1, max: 100 };

/** GivTCP's top battery rate per HV module: 25 A at 80 V. */
export const WATTS_PER_HV_MODULE = 25 * 80;

/** The watts one percent of a stack of `modules` is. */
export const wattsPerPercent = (modules: number): number => (modules * WATTS_PER_HV_MODULE) / 100;
