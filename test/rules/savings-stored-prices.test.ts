import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { savingsBattery, savingsSummary, withStoredPrices } from "../../src/rules/index.js";
import { AgileTariff, FixedTariff } from "../../src/rules/tariffs/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { tempDir } from "../store/helpers/temp-dir.js";
import { DAY, knownDays, TZ } from "./savings-days.js";

const SLOT = 1_800_000;
const dir = tempDir("e2m-savings-prices-");
let store: Store;

beforeAll(() => {
  store = openStore(dir.path("e2m.db"));
  // 14, 15 and 16 January 2026, each the known day of savings-days.ts.
  store.history.write(knownDays(3));
  // What the daemon stored of those days before it restarted: 0.10 from 00:00 to 04:00, else 0.30.
  store.publishedPrices.save(
    Array.from({ length: 3 * 48 }, (_, index) => ({
      side: "import" as const,
      start: DAY + index * SLOT,
      end: DAY + (index + 1) * SLOT,
      price: index % 48 < 8 ? 0.1 : 0.3,
    })),
  );
});
afterAll(() => {
  store.close();
  dir.remove();
});

describe("the daemon's savings after a restart", () => {
  // 17 January, just after midnight: the restarted daemon's Agile tariff holds none of the past days but the 16th.
  const now = Date.UTC(2026, 0, 17, 0, 0, 30);
  const restarted = () => {
    const tariff = new AgileTariff(
      { refresh: 60_000, published_at: "16:00", scale: 1, file: dir.path("absent.json") },
      TZ,
      new FixedTariff(0.3),
    );
    // The 16th as published again since the restart: flat 0.30, which wins over what was stored.
    tariff.setPrices(new Map(Array.from({ length: 48 }, (_, k) => [DAY + 2 * 86_400_000 + k * SLOT, 0.3])));
    return { import: tariff, export: new FixedTariff(0.15) };
  };
  const battery = savingsBattery({ charge_kw: 3, efficiency: 1 }, 10);

  it("price the days the tariff no longer holds at the stored published prices, not the fallback", () => {
    const summary = savingsSummary(store.history, {
      tariffs: withStoredPrices(restarted(), store.publishedPrices),
      timeZone: TZ,
      battery,
    })(now);
    // The 16th at the tariff's flat price: moving energy in time saves nothing, and it is published.
    expect(summary?.yesterday).toMatchObject({ prices: "published", estimatedHalfHours: 0, unpricedHalfHours: 0 });
    expect(summary?.yesterday?.vsNoBattery).toBeCloseTo(0, 9);
    // The 14th and 15th at the stored prices: 3.20 each against no battery (as `rules savings` has the known day).
    expect(summary?.month).toMatchObject({ prices: "published", estimatedHalfHours: 0 });
    expect(summary?.month?.vsNoBattery).toBeCloseTo(6.4, 9);
  });

  it("without the stored prices, those days are the fallback's", () => {
    const summary = savingsSummary(store.history, { tariffs: restarted(), timeZone: TZ, battery })(now);
    expect(summary?.month).toMatchObject({ prices: "fallback", estimatedHalfHours: 96 });
    expect(summary?.month?.vsNoBattery).toBeCloseTo(0, 9);
  });
});
