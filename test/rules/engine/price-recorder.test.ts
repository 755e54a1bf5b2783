import Database from "better-sqlite3";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { PriceRecorder } from "../../../src/rules/engine/price-recorder.js";
import { AgileTariff, FixedTariff } from "../../../src/rules/tariffs/index.js";
import { openStore } from "../../../src/store/index.js";
import { tempDir } from "../../store/helpers/temp-dir.js";

const SLOT = 30 * 60_000;
const HOUR = 2 * SLOT;
const NOW = Date.UTC(2026, 0, 14, 22);

function agile(prices: readonly [number, number][]): AgileTariff {
  const tariff = new AgileTariff(
    { refresh: 60_000, published_at: "16:00", scale: 0.01, file: "absent.json" },
    "Europe/London",
    new FixedTariff(0.3),
  );
  tariff.setPrices(new Map(prices));
  return tariff;
}

describe("the published prices recorder", () => {
  const dir = tempDir("e2m-price-recorder-");
  afterAll(() => dir.remove());

  it("stores the published prices only: not the fallback's estimates, nor a fixed tariff's own", () => {
    const store = openStore(dir.path("kept.db"));
    try {
      const tariffs = {
        import: agile([
          [NOW - SLOT, 0.12],
          [NOW, 0.1],
        ]),
        export: new FixedTariff(0.15),
      };
      const recorder = new PriceRecorder(tariffs, store.publishedPrices, 48 * HOUR, pino({ enabled: false }));
      expect(recorder.record(NOW)).toBe(2);
      expect(store.publishedPrices.between("import", NOW - 100 * HOUR, NOW + 100 * HOUR)).toEqual([
        { side: "import", start: NOW - SLOT, end: NOW, price: 0.12 },
        { side: "import", start: NOW, end: NOW + SLOT, price: 0.1 },
      ]);
      expect(store.publishedPrices.between("export", NOW - 100 * HOUR, NOW + 100 * HOUR)).toEqual([]);
      // Nothing new: nothing written. A new recorder (a restart) reads what the store has and writes nothing either.
      expect(recorder.record(NOW + SLOT)).toBe(0);
      expect(new PriceRecorder(tariffs, store.publishedPrices, 48 * HOUR, pino({ enabled: false })).record(NOW)).toBe(
        0,
      );
    } finally {
      store.close();
    }
  });

  it("logs a store that fails and writes what it could not at the next refresh", () => {
    const path = dir.path("locked.db");
    const store = openStore(path, { busyTimeoutMs: 10 });
    // Another connection holds the write lock: the store answers "locked".
    const other = new Database(path);
    other.exec("BEGIN IMMEDIATE");
    const logs: string[] = [];
    const recorder = new PriceRecorder(
      { import: agile([[NOW, 0.1]]) },
      store.publishedPrices,
      48 * HOUR,
      pino({ level: "debug" }, { write: (line: string) => logs.push(line) }),
    );
    try {
      expect(recorder.record(NOW)).toBe(0);
      expect(logs.some((line) => line.includes("the published prices could not be stored"))).toBe(true);
      other.exec("COMMIT");
      expect(recorder.record(NOW + SLOT)).toBe(1);
      expect(store.publishedPrices.between("import", NOW, NOW + HOUR)).toHaveLength(1);
    } finally {
      other.close();
      store.close();
    }
  });
});
