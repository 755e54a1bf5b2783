import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadYear } from "../../src/demo/planner-year.js";
import { DEMO_YEAR_DAYS, DEMO_YEAR_INVERTER, seedDemoYear } from "../../src/demo/year-history.js";
import { readMeteredHouse } from "../../src/rules/index.js";
import { demoScenario } from "../../src/simulator/scenario/builtin.js";
import { openStore } from "../../src/store/index.js";

const ROOT = join(import.meta.dirname, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "e2m-demo-year-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// 20 November 2026, 12:00 UTC; the simulator's own 7 days start on the 13th.
const NOW = Date.UTC(2026, 10, 20, 12);
const SLOT_MS = 30 * 60_000;

describe("the demo house's year of history", () => {
  it("is metered by the demo house's first inverter", () => {
    expect(demoScenario().accounts[0]?.devices?.[0]?.inverter.serial).toBe(DEMO_YEAR_INVERTER);
  });

  it("puts the planner-year load and solar on the same days of the year before the simulator's days, once", async () => {
    const store = openStore(join(dir, "demo.db"));
    try {
      const options = {
        now: NOW,
        timeZone: "Europe/London",
        device: DEMO_YEAR_INVERTER,
        simulatedDays: 7,
        root: ROOT,
      };
      const seed = await seedDemoYear(store, options);
      if (!seed.seeded) throw new Error(seed.reason);
      expect(seed.to).toBe(Date.UTC(2026, 10, 13) - SLOT_MS);
      expect(seed.from).toBe(Date.UTC(2026, 10, 13) - DEMO_YEAR_DAYS * 48 * SLOT_MS);
      expect(seed.points).toBe(DEMO_YEAR_DAYS * 48);

      // 1 July 2026 is the 182nd day of its year, as 1 July 2023 is of 2023's.
      const day = Date.UTC(2026, 6, 1);
      const house = readMeteredHouse(store.history, day, day + 48 * SLOT_MS);
      const year = loadYear(ROOT);
      const first = (Date.UTC(2023, 6, 1) - Date.UTC(2023, 0, 1)) / SLOT_MS;
      expect(house.slots).toHaveLength(48);
      house.slots.forEach((slot, t) => {
        expect(slot.loadKwh).toBeCloseTo(year.load[first + t] as number, 2);
        expect(slot.solarKwh).toBeCloseTo(year.solar[first + t] as number, 2);
        // The battery in eco: the grid carries at most what the house lacks, and exports only surplus.
        expect(slot.importKwh).toBeLessThanOrEqual(Math.max(0, slot.loadKwh - slot.solarKwh) + 0.002);
        expect(slot.exportKwh).toBeLessThanOrEqual(Math.max(0, slot.solarKwh - slot.loadKwh) + 0.002);
      });
      expect(house.soc.length).toBeGreaterThan(0);

      expect(await seedDemoYear(store, options)).toEqual({ seeded: false, reason: "the store has it already" });
    } finally {
      store.close();
    }
  });

  it("writes nothing where the data is not installed, and says why", async () => {
    const store = openStore(join(dir, "bare.db"));
    try {
      const seed = await seedDemoYear(store, {
        now: NOW,
        timeZone: "Europe/London",
        device: DEMO_YEAR_INVERTER,
        simulatedDays: 7,
        root: dir,
      });
      expect(seed).toEqual({ seeded: false, reason: "test/fixtures/planner-year is not in this installation" });
      expect(store.history.summary()).toEqual([]);
    } finally {
      store.close();
    }
  });
});
