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
