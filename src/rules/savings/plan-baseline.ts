import type { ExplainedSlot } from "../../optimiser/index.js";

/**
 * What the optimiser's half-hours would cost with no battery: each half-hour's forecast load less
 * solar imported at its import price, or its surplus exported at its export price.
 */
export function noBatteryCost(rows: readonly ExplainedSlot[]): number {
  let total = 0;
  for (const row of rows) {
    const net = row.loadKwh - row.solarKwh;
    total += net > 0 ? net * row.importPrice : net * row.exportPrice;
  }
  return total;
}
