import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MemorySolarForecasts, openStore, type SolarForecasts } from "../../../src/store/index.js";

const dir = mkdtempSync(join(tmpdir(), "e2m-solar-store-"));
const opened: { close(): void }[] = [];
afterAll(() => {
  for (const store of opened) store.close();
  rmSync(dir, { recursive: true, force: true });
});

const SLOT = 1_800_000;
const NOON = Date.parse("2026-06-01T12:00:00Z");

function behaves(name: string, open: () => { forecasts: SolarForecasts; reopen?: () => SolarForecasts }) {
  describe(name, () => {
    it("keeps what was forecast before each half-hour began, and the days newest first", () => {
      const { forecasts, reopen } = open();
      forecasts.record(
        "open-meteo",
        [0, 1, 2].map((index) => ({ start: NOON + index * SLOT, kwh: 1 })),
        NOON - SLOT,
      );
      // A later answer, ten minutes into the 12:00 half-hour: 12:00 keeps 1, the rest take 2.
      forecasts.record(
        "open-meteo",
        [0, 1, 2].map((index) => ({ start: NOON + index * SLOT, kwh: 2 })),
        NOON + 600_000,
      );
      forecasts.record("solcast", [{ start: NOON, kwh: 9 }], NOON - SLOT);
      forecasts.saveDay({
        provider: "open-meteo",
        day: "2026-05-31",
        slots: 30,
        forecastKwh: 10,
        actualKwh: 9,
        maeKwh: 0.1,
      });
      forecasts.saveDay({
        provider: "open-meteo",
        day: "2026-06-01",
        slots: 30,
        forecastKwh: 12,
        actualKwh: 8,
        maeKwh: 0.2,
      });
      // Saved again as late readings arrive: replaced, not added.
      forecasts.saveDay({
        provider: "open-meteo",
        day: "2026-06-01",
        slots: 31,
        forecastKwh: 12,
        actualKwh: 9,
        maeKwh: 0.15,
      });
      expect(forecasts.addRequest("solcast", "2026-06-01")).toBe(1);
      expect(forecasts.addRequest("solcast", "2026-06-01")).toBe(2);
      const read = reopen ? reopen() : forecasts;
      expect(read.between("open-meteo", NOON, NOON + 3 * SLOT)).toEqual([
        { start: NOON, kwh: 1 },
        { start: NOON + SLOT, kwh: 2 },
        { start: NOON + 2 * SLOT, kwh: 2 },
      ]);
      expect(read.between("open-meteo", NOON + SLOT, NOON + 2 * SLOT)).toEqual([{ start: NOON + SLOT, kwh: 2 }]);
      expect(read.lastDays("open-meteo", 7).map((day) => [day.day, day.slots, day.maeKwh])).toEqual([
        ["2026-06-01", 31, 0.15],
        ["2026-05-31", 30, 0.1],
      ]);
      expect(read.lastDays("open-meteo", 1)).toHaveLength(1);
      expect(read.requestsOn("solcast", "2026-06-01")).toBe(2);
      expect(read.requestsOn("solcast", "2026-06-02")).toBe(0);
    });
  });
}

behaves("the store's solar forecasts (SQLite, read back after reopening)", () => {
  const path = join(dir, "forecasts.db");
  const store = openStore(path);
  return {
    forecasts: store.solarForecasts,
    reopen: () => {
      store.close();
      const again = openStore(path);
      opened.push(again);
      return again.solarForecasts;
    },
  };
});

behaves("the in-memory solar forecasts", () => ({ forecasts: new MemorySolarForecasts() }));
