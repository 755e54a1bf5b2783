import { CHARGE_LIMIT_MIN_A } from "./settings.js";

export interface ChargeInputs {
  mode: string;
  /** adjust-charge-power-limit, amps. */
  limitA: number;
  /** The charger's hardware limit, amps. */
  hardwareA: number;
  /** Solar surplus available to the charger, amps. */
  surplusA: number;
  /** undefined without an active schedule; null while the active schedule has no period running. */
  scheduleLimitA: number | null | undefined;
}

/**
 * The current the charger offers the car; 0 means it holds the charge (SuspendedEVSE).
 * An active schedule overrides the mode: its period's limit applies, nothing outside a period.
 */
export function offeredCurrent(inputs: ChargeInputs): number {
  const cap = Math.min(inputs.limitA, inputs.hardwareA);
  if (inputs.scheduleLimitA !== undefined) {
    return inputs.scheduleLimitA === null ? 0 : Math.min(inputs.scheduleLimitA, cap);
  }
  const surplus = Math.max(0, inputs.surplusA);
  switch (inputs.mode) {
    case "Boost":
      return cap;
    case "SuperEco":
      return surplus >= CHARGE_LIMIT_MIN_A ? Math.min(surplus, cap) : 0;
    default:
      // Eco, and ModbusSlave (the inverter's instructions are modelled as Eco): at least 6 A,
      // more when the surplus is larger.
      return Math.min(Math.max(CHARGE_LIMIT_MIN_A, surplus), cap);
  }
}

/** Watts drawn at `currentA`. */
export function powerAt(currentA: number, voltage: number, phases: number): number {
  return currentA * voltage * phases;
}
