import type { Range } from "./ranges.js";

/*
 * A gateway's battery charge and discharge power limits: HR 313/314, in % of the All-in-Ones'
 * rated power together (GivTCP reads and writes them so on a gateway: its read.py takes
 * 6000 W × parallel_aio_num as the gateway's battery rate and Battery_Charge_Rate as that × HR 313
 * / 100; its write.py sends a rate in W as that percentage to HR 313/314 of the gateway itself).
 * The captured gateway (GAAA0014, two All-in-Ones) holds 50 and 100. This file is the ONE place
 * that turns a gateway's watts into those words and back.
 */

/** HR 313: the gateway's charge limit; HR 314: its discharge limit (% of its All-in-Ones' rating). */
export const GATEWAY_CHARGE_LIMIT_REGISTER = 313;
export const GATEWAY_DISCHARGE_LIMIT_REGISTER = 314;

/** An All-in-One's rated battery power, W, as GivTCP counts it behind a gateway. */
export const AIO_RATED_WATTS = 6000;

/** The words the limits take: 1-100 % (GivTCP's set_battery_charge_limit_ac refuses 0). */
export const GATEWAY_RATE_WORDS: Range = { min: 1, max: 100 };

/** The watts one percent is on a gateway with `aioCount` All-in-Ones (120 W for two). */
export const gatewayWattsPerStep = (aioCount: number): number => (aioCount * AIO_RATED_WATTS) / 100;
