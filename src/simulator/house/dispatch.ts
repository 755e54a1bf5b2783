import { activeSlot, type ControlSettings, slotActive } from "./control.js";

/** Indices of the seven flows, as the energy-flow type IDs. */
export const PV_TO_HOME = 0;
export const PV_TO_BATTERY = 1;
export const PV_TO_GRID = 2;
export const GRID_TO_HOME = 3;
export const GRID_TO_BATTERY = 4;
export const BATTERY_TO_HOME = 5;
export const BATTERY_TO_GRID = 6;
export const FLOW_COUNT = 7;

/** Share of the energy sent to the battery that it stores. */
export const CHARGE_EFFICIENCY = 0.95;
/** Share of the stored energy taken out that the battery delivers. */
export const DISCHARGE_EFFICIENCY = 0.96;

/** What a step's fault state lets the house do. */
export const MODE_NORMAL = 0;
/** The inverter has tripped: no PV, no battery, the grid feeds the home. */
export const MODE_TRIPPED = 1;
/** The battery is out of service. */
export const MODE_BATTERY_FAULT = 2;
/** The physics runs on, but the cloud hears nothing. */
export const MODE_COMMS_LOST = 3;
/** Before commissioning: nothing flows. */
export const MODE_OFF = 4;

export interface Plant {
  readonly capacityWh: number;
  readonly maxChargeW: number;
  readonly maxDischargeW: number;
  /** The lowest SOC the depth of discharge allows, percent. */
  readonly dodFloorPercent: number;
  readonly inverterMaxW: number;
}

/**
 * Splits one step's PV and load into the seven flows (W) written to `out`, given the battery's
 * stored energy. The caller integrates them; every limit here keeps the SOC within bounds.
 */
export function dispatch(
  control: ControlSettings,
  plant: Plant,
  pvW: number,
  loadW: number,
  minute: number,
  socWh: number,
  hours: number,
  mode: number,
  out: Float64Array,
): void {
  out.fill(0);
  if (mode === MODE_OFF) return;
  if (mode === MODE_TRIPPED) {
    out[GRID_TO_HOME] = loadW;
    return;
  }
  const capacity = plant.capacityWh;
  const batteryUsable = capacity > 0 && mode !== MODE_BATTERY_FAULT;
  const paused =
    control.pauseMode !== 0 && (control.pauseWindow === undefined || slotActive(control.pauseWindow, minute));
  const canCharge = batteryUsable && !(paused && (control.pauseMode & 1) !== 0);
  const canDischarge = batteryUsable && !(paused && (control.pauseMode & 2) !== 0);

  const acMaxW = (plant.inverterMaxW * control.maxOutputPercent) / 100;
  const roomW = Math.max(0, capacity - socWh) / (CHARGE_EFFICIENCY * hours);
  const chargeCapW = canCharge
    ? Math.min(roomW, (Math.min(plant.maxChargeW, control.chargeLimitW) * control.chargePercent) / 100)
    : 0;

  const ecoFloor = Math.max(control.reservePercent, control.cutoffPercent, plant.dodFloorPercent);
  const acSlot = control.acCharge ? activeSlot(control.acSlots, minute) : undefined;
  const dcSlot = !acSlot && control.dcDischarge ? activeSlot(control.dcSlots, minute) : undefined;
  let discharge: "none" | "demand" | "export" = "none";
  let floorPercent = ecoFloor;
  if (dcSlot) {
    discharge = control.eco ? "demand" : "export";
    floorPercent = Math.max(dcSlot.soc, ecoFloor);
  } else if (!acSlot && !control.dcDischarge && control.eco) {
    discharge = "demand";
  }
  const availableW =
    canDischarge && discharge !== "none"
      ? Math.min(
          (Math.min(plant.maxDischargeW, control.dischargeLimitW) * control.dischargePercent) / 100,
          (Math.max(0, socWh - (floorPercent / 100) * capacity) * DISCHARGE_EFFICIENCY) / hours,
        )
      : 0;

  const pvToHome = Math.min(pvW, loadW, acMaxW);
  const deficit = loadW - pvToHome;
  const surplus = pvW - pvToHome;
  let acLeft = acMaxW - pvToHome;
  let pvToBattery = 0;
  let gridToBattery = 0;
  let pvToGrid = 0;
  let batteryToHome = 0;
  let batteryToGrid = 0;

  if (discharge === "export") {
    batteryToHome = Math.min(deficit, availableW, acLeft);
    acLeft -= batteryToHome;
    pvToGrid = Math.min(surplus, acLeft);
    acLeft -= pvToGrid;
    batteryToGrid = Math.max(0, Math.min(availableW - batteryToHome, acLeft));
  } else {
    pvToBattery = Math.min(surplus, chargeCapW);
    if (acSlot) {
      const targetWh = (Math.min(acSlot.soc, control.acUpperPercent) / 100) * capacity;
      const neededW = Math.max(0, targetWh - socWh) / (CHARGE_EFFICIENCY * hours);
      gridToBattery = Math.min(acMaxW, Math.max(0, Math.min(neededW, chargeCapW) - pvToBattery));
    }
    pvToGrid = Math.min(surplus - pvToBattery, acLeft);
    acLeft -= pvToGrid;
    if (discharge === "demand") batteryToHome = Math.max(0, Math.min(deficit, availableW, acLeft));
  }

  out[PV_TO_HOME] = pvToHome;
  out[PV_TO_BATTERY] = pvToBattery;
  out[PV_TO_GRID] = pvToGrid;
  out[GRID_TO_HOME] = deficit - batteryToHome;
  out[GRID_TO_BATTERY] = gridToBattery;
  out[BATTERY_TO_HOME] = batteryToHome;
  out[BATTERY_TO_GRID] = batteryToGrid;
}

/** The change in stored energy (Wh) of one step's flows. */
export function storedDeltaWh(flows: Float64Array, hours: number): number {
  const charge = (flows[PV_TO_BATTERY] ?? 0) + (flows[GRID_TO_BATTERY] ?? 0);
  const discharge = (flows[BATTERY_TO_HOME] ?? 0) + (flows[BATTERY_TO_GRID] ?? 0);
  return (charge * CHARGE_EFFICIENCY - discharge / DISCHARGE_EFFICIENCY) * hours;
}
