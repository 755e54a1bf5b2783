/*
 * The values the number registers the LAN writes hold, as the vendor documents them: its Modbus
 * register list (v4.1.6) and the input bounds of its app (v4.0.7), both as inventoried by
 * givenergy-modbus (docs/reference/registers/), and its cloud's rules for the same registers.
 * A number entity's min and max come from here, so that no value a device holds is outside them.
 */

/** The whole numbers a register takes, both ends included. */
export interface Range {
  readonly min: number;
  readonly max: number;
}

/** The register's percentages: active power rate (HR 50), charge targets (HR 116, 242-269; EMS HR 2055-2061). */
export const PERCENT: Range = { min: 0, max: 100 };

/**
 * A battery level a discharge stops at: the reserve (HR 110), cut-off (HR 114) and discharge slot
 * limits (HR 272-299; EMS HR 2046-2052 and its export slots HR 2064-2070). The cloud's rules and
 * the app's bounds (HR 110, 272-299) are 4-100 %; the register list's wider 0-100 (0-200 for
 * HR 110) is the field, not what any vendor path writes, and every capture holds 4 or more.
 */
export const DISCHARGE_FLOOR: Range = { min: 4, max: 100 };

/** The AC-coupled's and All-in-One's battery charge and discharge power (HR 313/314), % of rated: 1-100. */
export const POWER_PERCENT: Range = { min: 1, max: 100 };

/**
 * The three-phase's discharge floor and charge target (HR 1109/1111): 5-100 % in the register
 * list, 1-100 % in the app; the app's, so that whatever it wrote is in range.
 */
export const THREE_PHASE_SOC: Range = { min: 1, max: 100 };

/**
 * The three-phase's export limit (HR 1102, uwbackflowLimitPowerSet), in W: 0-60000 in the register
 * list. It limits the flow back into the grid at the meter, so it is the connection's allowance,
 * not the inverter's rating: the captured 11 kW GIV-3HY-11 holds 17000.
 */
export const THREE_PHASE_EXPORT_WATTS: Range = { min: 0, max: 60_000 };

/**
 * The EMS's plant export limit (HR 2071), in W. Neither the register list nor the app bounds it,
 * and what the plant's inverters can export together is not known (the captured EMS holds 9500
 * with two 3 kW AC-coupled inverters: it is the site's allowance, not their sum), so the word's
 * own range: any value the register holds is in it.
 */
export const EMS_EXPORT_WATTS: Range = { min: 0, max: 0xffff };

export const between = (range: Range): string => `between:${range.min},${range.max}`;
