import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readMeteredHouse } from "../../src/rules/savings/metered-slots.js";
import { computeSavings, type SavingsTariffs } from "../../src/rules/savings/savings.js";
import { FixedTariff, ZonesTariff } from "../../src/rules/tariffs/index.js";
import { type HistoryRecord, openStore } from "../../src/store/index.js";
import { DAY, knownDays, TZ } from "./savings-days.js";

const dir = mkdtempSync(join(tmpdir(), "e2m-savings-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Import 0.10 from 00:00 to 04:00 and 0.30 otherwise, export 0.15, a standing charge of 0.60 a day.
const zones = new ZonesTariff(0.3, [{ price: 0.1, hours: "00:00-04:00" }], TZ);
const tariffs: SavingsTariffs = {
  import: { rates: (from, to) => zones.rates(from, to), standingChargePerDay: () => 0.6 },
  export: new FixedTariff(0.15),
};
// Lossless, so that the eco-only day can be worked out by hand.
const battery = {
  capacityKwh: 10,
  chargeKw: 3,
  dischargeKw: 3,
  chargeEfficiency: 1,
  dischargeEfficiency: 1,
  reservePercent: 0,
};

function storeWith(name: string, records: HistoryRecord[]): string {
  const path = join(dir, name);
  const store = openStore(path);
  store.history.write(records);
  store.close();
  return path;
}

function savingsFrom(path: string, from: string, to: string) {
  const store = openStore(path);
  try {
    const house = readMeteredHouse(store.history, Date.UTC(2026, 0, 1), Date.UTC(2026, 1, 1));
    return computeSavings(house, tariffs, { from, to, timeZone: TZ, battery });
  } finally {
    store.close();
  }
}

describe("savings against no battery and eco only, from a real store", () => {
  const oneDay = storeWith("one-day.db", knownDays(1));

  it("reads 48 metered half-hours with the day's energies", () => {
    const store = openStore(oneDay);
    try {
      const house = readMeteredHouse(store.history, DAY, DAY + 86_400_000);
      expect(house.slots).toHaveLength(48);
      const sum = (of: "importKwh" | "exportKwh" | "loadKwh" | "solarKwh") =>
        house.slots.reduce((total, slot) => total + slot[of], 0);
      expect(sum("importKwh")).toBeCloseTo(20, 6);
      expect(sum("exportKwh")).toBeCloseTo(8, 6);
      expect(sum("loadKwh")).toBeCloseTo(24, 6);
      expect(sum("solarKwh")).toBeCloseTo(12, 6);
      // 10:00's half-hour is the first sunny one, not 09:30's.
      expect(house.slots[19]?.solarKwh).toBeCloseTo(0, 9);
      expect(house.slots[20]?.solarKwh).toBeCloseTo(1.5, 6);
      expect(house.soc[0]).toEqual({ at: DAY, percent: 20 });
    } finally {
      store.close();
    }
  });

  it("prices the actual day, the day with no battery and the day in eco only", () => {
    const { days } = savingsFrom(oneDay, "2026-01-14", "2026-01-14");
    expect(days).toHaveLength(1);
    const day = days[0];
    expect(day).toMatchObject({
      day: "2026-01-14",
      slots: 48,
      daySlots: 48,
      unpriced: 0,
      estimated: 0,
      startSocPercent: 20,
    });
    // Actual: 20 kWh at 0.10 less 8 kWh at 0.15, plus 0.60 standing = 1.40.
    expect(day?.actual).toBeCloseTo(1.4, 9);
    // No battery: 8 night half-hours x 0.5 at 0.10 (0.40) + 32 other dark ones x 0.5 at 0.30 (4.80)
    // less 8 sunny ones exporting 1.0 at 0.15 (1.20), plus 0.60 = 4.60.
    expect(day?.noBattery).toBeCloseTo(4.6, 9);
    // Eco from 2 kWh: it lasts 00:00-02:00; 02:00-04:00 imports 2 kWh at 0.10 (0.20) and 04:00-10:00
    // 6 kWh at 0.30 (1.80); the sun stores 8 kWh (nothing exported), which lasts 14:00-22:00;
    // 22:00-24:00 imports 2 kWh at 0.30 (0.60). 2.60 + 0.60 = 3.20.
    expect(day?.ecoOnly).toBeCloseTo(3.2, 9);
    expect(day?.savedVsNoBattery).toBeCloseTo(3.2, 9);
    expect(day?.savedVsEcoOnly).toBeCloseTo(1.8, 9);
  });

  it("sums the days of a month, and leaves a day's holes out instead of guessing them", () => {
    // Two days, with the points of 12:00-13:00 on the second day lost.
    const hole = { from: DAY + 86_400_000 + 12 * 3_600_000, to: DAY + 86_400_000 + 13 * 3_600_000 };
    const path = storeWith(
      "two-days.db",
      knownDays(2).filter((point) => point.at <= hole.from || point.at >= hole.to),
    );
    const { days, months } = savingsFrom(path, "2026-01-01", "2026-01-31");
    expect(days.map((day) => day.day)).toEqual(["2026-01-14", "2026-01-15"]);
    // 12:00 to 13:00 is one gap of an hour: its energy (2 kWh exported) is left out whole, with
    // both of its half-hours.
    expect(days[1]?.slots).toBe(46);
    const lostExport = 2;
    expect(days[1]?.actual).toBeCloseTo(1.4 + lostExport * 0.15, 9);
    expect(months).toHaveLength(1);
    expect(months[0]?.days).toBe(2);
    expect(months[0]?.actual).toBeCloseTo(1.4 + (1.4 + lostExport * 0.15), 9);
    // The hole loses the same 2 kWh of export from the house with no battery: 3.20 saved each day.
    expect(months[0]?.savedVsNoBattery).toBeCloseTo(6.4, 9);
  });

  it("reads days the store downsampled to one row per half-hour", () => {
    const path = storeWith("downsampled.db", knownDays(2));
    const store = openStore(path);
    try {
      const result = store.history.applyRetention({ "inverter.point": { downsample_after: 0 } }, DAY + 3 * 86_400_000);
      expect(result.merged).toBeGreaterThan(0);
    } finally {
      store.close();
    }
    const second = savingsFrom(path, "2026-01-15", "2026-01-15").days[0];
    // Each half-hour is now one row at :25 or :55 holding the counters then; the rise from one to
    // the next goes to the later row's half-hour, so 5 minutes of each half-hour's energy shift
    // into the next one. On the 15th that moves 5 minutes of 03:30's import (2.5 / 6 kWh) from
    // 0.10 to 04:00's 0.30; everything else stays at its price (export is one price all day).
    expect(second?.slots).toBe(48);
    expect(second?.actual).toBeCloseTo(1.4 + (2.5 / 6) * 0.2, 9);
  });

  it("has no eco-only figure for a day without a SoC reading", () => {
    const records = knownDays(1).map((point) => ({ ...point, data: { ...point.data, power: {} } }));
    const { days, months } = savingsFrom(storeWith("no-soc.db", records), "2026-01-14", "2026-01-14");
    expect(days[0]?.ecoOnly).toBeNull();
    expect(days[0]?.savedVsEcoOnly).toBeNull();
    expect(days[0]?.savedVsNoBattery).toBeCloseTo(3.2, 9);
    expect(months[0]?.savedVsEcoOnly).toBe(0);
  });
});
