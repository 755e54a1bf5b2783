import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { forecastLoad, forecastSolar } from "../../src/optimiser/index.js";
import { readHouseHistory } from "../../src/rules/house/house-history.js";
import { type HistoryRecord, openStore } from "../../src/store/index.js";
import { SLOT_MS, wallClock } from "../../src/time/local-time.js";

const dir = mkdtempSync(join(tmpdir(), "e2m-house-history-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TZ = "Europe/London";
const SERIAL = "SD2024G001";
const FIVE_MINUTES = 300_000;
// Monday 2 June 2025, 00:00 in London (BST).
const MONDAY = Date.UTC(2025, 5, 1, 23);
const DAYS = 28;

/** The house's pattern by local time: W of consumption and of solar. */
function pattern(at: number): { consumption: number; solar: number } {
  const wall = wallClock(at, TZ);
  const hour = wall.minutes / 60;
  const weekend = wall.weekday >= 5;
  const consumption = weekend ? 800 : hour >= 17 && hour < 20 ? 2500 : 300;
  const solar = hour >= 6 && hour < 20 ? Math.round(3000 * Math.sin(((hour - 6) / 14) * Math.PI)) : 0;
  return { consumption, solar };
}

function points(): HistoryRecord[] {
  const out: HistoryRecord[] = [];
  for (let at = MONDAY; at < MONDAY + DAYS * 86_400_000; at += FIVE_MINUTES) {
    const { consumption, solar } = pattern(at);
    out.push({
      kind: "inverter.point",
      device: SERIAL,
      at,
      key: "",
      data: {
        status: "NORMAL",
        power: {
          solar: { power: solar, arrays: [{ array: 1, voltage: 300, current: 1, power: solar }] },
          grid: { voltage: 240, current: 1, power: solar - consumption, frequency: 50 },
          battery: { percent: 50, power: 0, temperature: 20 },
          consumption: { power: consumption },
          inverter: { temperature: 30, power: 0, output_voltage: 240, output_frequency: 50, eps_power: 0 },
        },
        today: { solar: 0, consumption: 0 },
        total: { solar: 0, consumption: 0 },
        is_metered: true,
      },
    });
  }
  return out;
}

/** The pattern's energy in a half-hour, kWh: the mean of its six 5-minute points. */
function expectedKwh(start: number, of: "consumption" | "solar"): number {
  let sum = 0;
  for (let k = 0; k < 6; k++) sum += pattern(start + k * FIVE_MINUTES)[of];
  return sum / 6 / 2 / 1000;
}

describe("the house's history from the store", () => {
  const path = join(dir, "store.db");
  const writer = openStore(path);
  writer.history.write(points());
  // A lost point and another kind are not readings of the house.
  writer.history.write([
    { kind: "inverter.point", device: SERIAL, at: MONDAY + 1, key: "", data: { status: "LOST", power: {} } },
    { kind: "flow.half_hour", device: SERIAL, at: MONDAY, key: "", data: { "0": 5 } },
  ]);
  writer.close();

  it("reads back half-hourly consumption and solar in kWh, and the days it covers", () => {
    const store = openStore(path);
    try {
      const history = readHouseHistory(store.history, { from: MONDAY, to: MONDAY + DAYS * 86_400_000, timeZone: TZ });
      expect(history.days).toBe(DAYS);
      expect(history.load).toHaveLength(DAYS * 48);
      expect(history.solar).toHaveLength(DAYS * 48);
      for (const sample of history.load.slice(0, 96)) {
        expect(sample.kwh).toBeCloseTo(expectedKwh(sample.start, "consumption"), 9);
      }
      const noon = history.solar.find((sample) => sample.start === MONDAY + 26 * SLOT_MS);
      expect(noon?.kwh).toBeCloseTo(expectedKwh(MONDAY + 26 * SLOT_MS, "solar"), 9);
    } finally {
      store.close();
    }
  });

  it("feeds forecasts that recover the pattern: the weekday evening peak, the weekend, the solar curve", () => {
    const store = openStore(path);
    try {
      const history = readHouseHistory(store.history, {
        device: SERIAL,
        from: MONDAY,
        to: MONDAY + DAYS * 86_400_000,
        timeZone: TZ,
      });
      // From Friday 00:00 after four weeks: Friday, then Saturday.
      const friday = MONDAY + (DAYS + 4) * 86_400_000;
      const past = {
        load: history.load.filter((s) => s.start < friday),
        solar: history.solar.filter((s) => s.start < friday),
      };
      const load = forecastLoad(past.load, { from: friday, timeZone: TZ });
      const solar = forecastSolar(past.solar, { from: friday, timeZone: TZ });
      const at = (index: number) => friday + index * SLOT_MS;
      const fridayPeak = load[36] ?? 0; // 18:00
      expect(fridayPeak).toBeGreaterThan(expectedKwh(at(36), "consumption") * 0.9);
      expect(fridayPeak).toBeLessThanOrEqual(expectedKwh(at(36), "consumption") + 1e-9);
      expect(load[10]).toBeCloseTo(expectedKwh(at(10), "consumption"), 1);
      // Saturday's evening: near the weekend's 800 W, far from the weekday peak the profile also holds.
      const saturdayEvening = load[48 + 36] ?? 0;
      const weekend = expectedKwh(at(48 + 36), "consumption");
      expect(saturdayEvening).toBeGreaterThan(weekend * 0.95);
      expect(saturdayEvening - weekend).toBeLessThan((fridayPeak - weekend) / 4);
      for (let index = 0; index < 96; index++) {
        expect(solar[index]).toBeCloseTo(expectedKwh(at(index), "solar"), 6);
      }
    } finally {
      store.close();
    }
  });
});
