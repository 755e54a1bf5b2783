import { describe, expect, it } from "vitest";
import { type Battery, slotCost, slotEnergy } from "../../src/optimiser/index.js";
import { ecoAndHold, fullCharge, fullExport, interpolate, untargetedBattery } from "../../src/optimiser/untargeted.js";

/*
 * The optimiser's backward pass prices eco, hold and full-power charge and export with
 * untargeted.ts instead of the shared energy model: the figures must be the model's to the bit,
 * or the plans (and the backtest's figures) would move.
 */

const POINTS = 41;
const STEP = 0.25;

/** A value table per mode over the SoC grid, uneven so that interpolation shows. */
const next = Float64Array.from(
  { length: 4 * POINTS },
  (_, index) => Math.sin(index * 0.7) * 0.3 - (index % POINTS) * 0.01,
);

const batteries: Battery[] = [
  {
    capacityKwh: 10,
    chargeKw: 3,
    dischargeKw: 2.5,
    chargeEfficiency: 0.93,
    dischargeEfficiency: 0.96,
    reservePercent: 4,
    exportLimitKw: 3.6,
  },
  { capacityKwh: 10, chargeKw: 5, dischargeKw: 5, chargeEfficiency: 1, dischargeEfficiency: 0.9, reservePercent: 20 },
];

/** What the shared model says an action from `soc` totals: its cost plus the value where it lands. */
function modelTotal(
  battery: Battery,
  mode: "eco" | "hold" | "charge" | "export",
  soc: number,
  slot: { load: number; solar: number; buy: number; sell: number },
) {
  const result = slotEnergy(battery, 0.5, mode, soc, slot.load, slot.solar);
  const index = { eco: 0, hold: 1, charge: 2, export: 3 }[mode];
  return slotCost(result, slot.buy, slot.sell) + interpolate(next, POINTS, STEP, index, result.socKwh);
}

describe("the backward pass's untargeted actions", () => {
  it("total what the shared energy model does, to the bit, over SoCs, loads, solar and prices", () => {
    let checked = 0;
    for (const battery of batteries) {
      const b = untargetedBattery(battery, 0.5);
      for (const load of [0, 0.3, 1.7])
        for (const solar of [0, 0.2, 2.9])
          for (const [buy, sell] of [
            [0.27, 0.15],
            [0.085, 0.15],
            [-0.05, 0.02],
          ] as const)
            for (let point = 0; point < POINTS; point++) {
              const soc = point * STEP;
              const slot = { load, solar, importPrice: buy, exportPrice: sell };
              const prices = { load, solar, buy, sell };
              const out = new Float64Array(2);
              ecoAndHold(b, slot, next, POINTS, STEP, point, out);
              expect(out[0]).toBe(modelTotal(battery, "eco", soc, prices));
              expect(out[1]).toBe(modelTotal(battery, "hold", soc, prices));
              expect(fullCharge(b, slot, next, POINTS, STEP, soc)).toBe(modelTotal(battery, "charge", soc, prices));
              expect(fullExport(b, slot, next, POINTS, STEP, soc)).toBe(modelTotal(battery, "export", soc, prices));
              checked++;
            }
    }
    expect(checked).toBe(2 * 3 * 3 * 3 * POINTS);
  });
});
