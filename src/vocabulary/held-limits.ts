/*
 * Which of a model's battery controls the daemon holds itself, by the settings the model carries:
 * the one rule the LAN's preset listing (sources/local/lan-presets.ts) and the control gate's
 * holds (control/pause-emulation.ts) both go by.
 */

/** Pause Battery's mode (HR 318 where a model has the pause registers). */
export const PAUSE_MODE_SETTING = 96;
/** The battery's charge and discharge power limits (HR 111/112 on a single-phase model). */
export const CHARGE_LIMIT_SETTING = 72;
export const DISCHARGE_LIMIT_SETTING = 73;

/** Whether the model carries a setting: true, false, or undefined while not known. */
export type Carries = (settingId: number) => boolean | undefined;

/** Whether the model has both battery power limits, by which the daemon can hold a side at 0. */
export function hasBatteryLimits(carries: Carries): boolean {
  return carries(CHARGE_LIMIT_SETTING) === true && carries(DISCHARGE_LIMIT_SETTING) === true;
}

/** Whether the model's pause is the daemon's: it has the limits and no pause register of its own. */
export function pauseHeldByDaemon(carries: Carries): boolean {
  return hasBatteryLimits(carries) && carries(PAUSE_MODE_SETTING) === false;
}
