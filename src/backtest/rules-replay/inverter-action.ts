import type { Battery, SlotAction } from "../../optimiser/index.js";
import { activeSlot, type ControlSettings, readControl, slotActive } from "../../simulator/house/control.js";
import type { SettingsView } from "../../simulator/house/settings-view.js";

/** The battery model's action for a half-hour, and the battery as the inverter's settings limit it then. */
export interface InverterSlot {
  readonly action: SlotAction;
  readonly battery: Battery;
}

/**
 * What the inverter's settings make the battery do in the half-hour starting at local `minute`,
 * told as the battery model's modes, the way the simulator's house decides it (dispatch.ts): a
 * timed charge slot charges from the grid to its limit; a timed discharge slot exports down to
 * its limit when the discharge is an export (`exporting`: Eco off, or on an inverter with
 * full-power-discharge-in-eco-mode the timed-export preset switched it on), else covers the home
 * down to it; a pause on discharge, Eco off, or a discharge switched on outside its slots holds
 * the battery; otherwise Eco.
 *
 * The reserve and the power limits (settings 71, 72, 73 and the power percentages) limit the
 * battery only once changed from what the inverter held at the replay's start (`initial`): until
 * then the battery is the backtest's, as every other policy has it.
 */
export function inverterSlot(
  view: SettingsView,
  initial: ControlSettings,
  minute: number,
  battery: Battery,
  exporting: boolean,
): InverterSlot {
  const control = readControl(view);
  const paused = control.pauseMode !== 0 && (!control.pauseWindow || slotActive(control.pauseWindow, minute));
  const noCharge = paused && (control.pauseMode & 1) !== 0;
  const noDischarge = paused && (control.pauseMode & 2) !== 0;
  const limited = limitedBattery(control, initial, battery);
  const kwhOf = (percent: number) => (percent / 100) * battery.capacityKwh;
  const acSlot = control.acCharge ? activeSlot(control.acSlots, minute) : undefined;
  if (acSlot) {
    if (noCharge) return { action: { mode: "hold" }, battery: limited };
    return {
      action: { mode: "charge", targetKwh: kwhOf(Math.min(acSlot.soc, control.acUpperPercent)) },
      battery: limited,
    };
  }
  const dcSlot = control.dcDischarge ? activeSlot(control.dcSlots, minute) : undefined;
  if (noDischarge || (control.dcDischarge && !dcSlot) || (!control.eco && !dcSlot))
    return { action: { mode: "hold" }, battery: limited };
  if (dcSlot && (exporting || !control.eco))
    return {
      action: { mode: "export", targetKwh: kwhOf(Math.max(dcSlot.soc, limited.reservePercent)) },
      battery: limited,
    };
  const floor = dcSlot ? Math.max(dcSlot.soc, limited.reservePercent) : limited.reservePercent;
  return { action: { mode: "eco" }, battery: { ...limited, reservePercent: floor } };
}

function limitedBattery(control: ControlSettings, initial: ControlSettings, battery: Battery): Battery {
  const chargeChanged =
    control.chargeLimitW !== initial.chargeLimitW || control.chargePercent !== initial.chargePercent;
  const dischargeChanged =
    control.dischargeLimitW !== initial.dischargeLimitW || control.dischargePercent !== initial.dischargePercent;
  const reserveChanged =
    control.reservePercent !== initial.reservePercent || control.cutoffPercent !== initial.cutoffPercent;
  if (!chargeChanged && !dischargeChanged && !reserveChanged) return battery;
  const kw = (watts: number, percent: number) => ((watts / 1000) * percent) / 100;
  return {
    ...battery,
    chargeKw: chargeChanged
      ? Math.min(battery.chargeKw, kw(control.chargeLimitW, control.chargePercent))
      : battery.chargeKw,
    dischargeKw: dischargeChanged
      ? Math.min(battery.dischargeKw, kw(control.dischargeLimitW, control.dischargePercent))
      : battery.dischargeKw,
    reservePercent: reserveChanged ? Math.max(control.reservePercent, control.cutoffPercent) : battery.reservePercent,
  };
}
