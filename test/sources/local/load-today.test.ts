import { describe, expect, it } from "vitest";
import { encodeSinglePhase, RegisterFile } from "../../../src/local/index.js";
import { Registers } from "../../../src/local/registers/bank.js";
import { decodeSinglePhase } from "../../../src/local/registers/single-phase.js";
import { TodayLoadGuard } from "../../../src/sources/local/load-today.js";

/*
 * Today's consumption over the LAN is balanced from five counters each rounded to 0.1 kWh by its
 * register: the decoded figure can dip while every counter rises, and Home Assistant would take
 * the dip for a meter reset. Counters go through the registers as a dongle serves them.
 */
function decoded(counters: Record<string, number>) {
  const file = new RegisterFile();
  encodeSinglePhase(file, { solar_array_1_power: 0, solar_array_2_power: 0, ...counters }, "Hybrid Gen3");
  return decodeSinglePhase(new Registers(file), "Hybrid Gen3");
}

const day = (solar: number, imported: number, discharged: number, exported: number, charged: number) =>
  decoded({
    today_solar_energy: solar,
    today_grid_import_energy: imported,
    today_battery_discharge_energy: discharged,
    today_grid_export_energy: exported,
    today_battery_charge_energy: charged,
  });

describe("today's balanced consumption over the LAN", () => {
  it("is the day's energy balance of the registers' counters", () => {
    expect(day(5, 1.7, 0.1, 0, 4.1).today_consumption_energy).toBe(2.7);
  });

  it("never runs backwards within a day, and starts again when the counters do", () => {
    const guard = new TodayLoadGuard();
    expect(guard.hold(day(5, 1.7, 0.1, 0, 4.1)).today_consumption_energy).toBe(2.7);
    // Every counter rose or held, the balance fell by a tenth (charge rounded up first): 2.7 stands.
    expect(guard.hold(day(5.1, 1.7, 0.1, 0, 4.3)).today_consumption_energy).toBe(2.7);
    expect(guard.hold(day(5.3, 1.8, 0.1, 0, 4.3)).today_consumption_energy).toBe(2.9);
    // Midnight: the counters start again from zero, and so does the figure.
    expect(guard.hold(day(0, 0.1, 0, 0, 0)).today_consumption_energy).toBe(0.1);
  });
});
