import { BMU_CELLS } from "./battery.js";
import type { Model } from "./model.js";

/** HR 55: the battery's nominal capacity in Ah (givenergy-modbus's battery_capacity_ah). */
export const BATTERY_CAPACITY_REGISTER = 55;

/**
 * The battery's nominal voltage by model, as the public map gives it (givenergy-modbus's
 * system_battery_voltage): an LV pack's 51.2 V (16 cells of 3.2 V) behind a hybrid or AC-coupled
 * unit; the All-in-One's 96-cell pack at 307.2 V, as the cloud's listing shows it (the map rounds
 * it to 307 V, which gives the same kWh to 0.1). The captures agree: a Gen2 with one 9.5 kWh pack
 * reads 186 Ah, the All-in-One 52 Ah. The HV hybrid Gen3, the Gen4 and the three-phase models are
 * left out here: no capture shows HR 55 on them (the captured three-phase reads 0). The
 * three-phase's capacity is its HV stack's (hvStackCapacityKwh).
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

/** An LFP cell's nominal voltage: the listing's All-in-One pack is 96 cells at 307.2 V. */
export const LFP_CELL_VOLTS = 3.2;

/** The models whose battery's capacity is their HV stack's BCU's rather than HR 55's. */
export const HV_STACK_CAPACITY: ReadonlySet<Model> = new Set<Model>(["Three-phase hybrid", "Three-phase AC-coupled"]);

/**
 * An HV stack's nominal kWh from its BCU: the nominal Ah (IR 98, givenergy-modbus's
 * battery_nominal_capacity_ah) times the stack's nominal voltage, its modules (IR 64) in series of
 * 24 LFP cells at 3.2 V each. The captured three-phase plant reads 52.0 Ah and 6 modules: 24.0 kWh
 * (its owner's 52 Ah modules; the remaining Ah, IR 99, follow nominal × health × charge in all
 * three captures). GivTCP's battery_capacity_hv multiplies IR 98 by one module's 76.8 V only,
 * which gives one module's 4.0 kWh for the six-module stack (docs/entities.md).
 */
export function hvStackCapacityKwh(ah: number | undefined, modules: number | undefined): number | undefined {
  if (ah === undefined || modules === undefined || ah <= 0 || modules <= 0) return undefined;
  return Math.round((ah * modules * BMU_CELLS * LFP_CELL_VOLTS) / 100) / 10;
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
