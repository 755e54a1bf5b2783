import { slotClocks as clocksOf, type SlotClock } from "../../src/backtest/slot-clocks.js";
import { SLOTS, YEAR_START, YEAR_TIME_ZONE } from "./data.js";

export { PUBLISHED_AT_MINUTES, type SlotClock } from "../../src/backtest/slot-clocks.js";

export const TIME_ZONE = YEAR_TIME_ZONE;

/** UK wall clock of every slot of the year, and how far Agile's prices are known at its start. */
export function slotClocks(): SlotClock[] {
  return clocksOf(
    Array.from({ length: SLOTS }, (_, slot) => YEAR_START + slot * 30 * 60_000),
    TIME_ZONE,
  );
}
