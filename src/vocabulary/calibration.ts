/**
 * A battery calibration's stage in the daemon's words (the `calibration` state key), in the order
 * the inverter numbers them (src/local/registers/calibration.ts). Only "off" is no calibration
 * running; a stage no table names reads "unknown", which holds the rules as a running one does.
 */
export const CALIBRATION_STAGES = [
  "off",
  "discharge",
  "set lower limit",
  "charge",
  "set upper limit",
  "balance",
  "set full capacity",
  "finish",
] as const;

export type CalibrationStage = (typeof CALIBRATION_STAGES)[number];

export const UNKNOWN_CALIBRATION = "unknown";

/** Every word the `calibration` key takes. */
export const CALIBRATION_WORDS: readonly string[] = [...CALIBRATION_STAGES, UNKNOWN_CALIBRATION];

/** Whether a `calibration` value is a calibration running. */
export const isCalibrating = (calibration: string): boolean => calibration !== "off";
