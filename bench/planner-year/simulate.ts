export {
  type Decide,
  type Outcome,
  type SimulatedSlot,
  SLOT_HOURS,
  type Step,
  simulate,
  simulateSteps,
  withoutBattery,
} from "../../src/backtest/simulate.js";
