import type { Model } from "./model.js";

/** HR 55: the battery's nominal capacity in Ah (givenergy-modbus's battery_capacity_ah). */
export const BATTERY_CAPACITY_REGISTER = 55;

/**
 * The battery's nominal voltage by model, as the public map gives it (givenergy-modbus's
 * system_battery_voltage): an LV pack's 51.2 V (16 cells of 3.2 V) behind a hybrid or AC-coupled
 * unit; the All-in-One's 96-cell pack at 307.2 V, as the cloud's listing shows it (the map rounds
 * it to 307 V, which gives the same kWh to 0.1). The captures agree: a Gen2 with one 9.5 kWh pack
 * reads 186 Ah, the All-in-One 52 Ah. The HV hybrid Gen3, the Gen4 and the three-phase models are
 * left out: no capture shows HR 55 on them (the captured three-phase reads 0), so no capacity is
 * claimed for them over the LAN.
 */
const NOMINAL_VOLTS: Partial<Record<Model, number>> = {
  "Hybrid Gen1": 51.2,
  "Hybrid Gen2": 51.2,
  "Hybrid Gen3": 51.2,
  "AC-coupled": 51.2,
  "All-in-One": 307.2,
};

/**
 * The battery's nominal kWh from HR 55, as the cloud works it out from its listing (nominal Ah
 * times nominal voltage, to 0.1 kWh), so both paths give the same `battery_capacity`. Undefined
 * for a model without a known voltage or a register that reads 0 (no battery).
 */
export function batteryCapacityKwh(model: Model, ah: number | undefined): number | undefined {
  const volts = NOMINAL_VOLTS[model];
  if (volts === undefined || ah === undefined || ah <= 0) return undefined;
  return Math.round((ah * volts) / 100) / 10;
}

/**
 * An All-in-One's nominal pack, Ah: HR 55 of the captured All-in-One, each module's design
 * capacity in the cloud's real listing of a gateway with two, whose own nominal_capacity is their
 * sum (104).
 */
export const AIO_NOMINAL_AH = 52;

/**
 * A gateway's nominal kWh: its All-in-Ones' packs together (IR 1700 counts them), as the cloud
 * lists it (its nominal Ah, the packs' sum, times the All-in-One's 307.2 V), so both paths give the
 * same `battery_capacity`. The gateway's own HR 55 reads 0 in its capture: it holds no size.
 * (GivTCP shows a rounder 13.5 kWh per All-in-One, its usable capacity.)
 */
export function gatewayCapacityKwh(aioCount: number | undefined): number | undefined {
  return aioCount === undefined || aioCount <= 0
    ? undefined
    : batteryCapacityKwh("All-in-One", aioCount * AIO_NOMINAL_AH);
}
