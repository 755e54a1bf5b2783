import { CALIBRATION_STAGES, type CalibrationStage, UNKNOWN_CALIBRATION } from "../../vocabulary/index.js";
import type { Registers } from "./bank.js";

/**
 * HR 29 (`soc_force_adjust`) holds the battery calibration stage as a number: register and
 * numbering from dewet22/givenergy-modbus, givenergy_modbus/model/inverter.py (`soc_force_adjust`
 * is HR(29), `BatteryCalibrationStage`: 0 off, 1 discharge, 2 set lower limit, 3 charge, 4 set
 * upper limit, 5 balance, 6 set full capacity, 7 finish). It is read only (controls.ts never writes it).
 */
export const CALIBRATION_REGISTER = 29;

/** The stage HR 29 holds; undefined when it was not read. */
export function calibrationOf(holding: Registers): string | undefined {
  const word = holding.u16(CALIBRATION_REGISTER);
  if (word === undefined) return undefined;
  return CALIBRATION_STAGES[word] ?? UNKNOWN_CALIBRATION;
}

/** The register word of a stage (the simulator's side). */
export function calibrationWord(stage: CalibrationStage): number {
  return CALIBRATION_STAGES.indexOf(stage);
}
