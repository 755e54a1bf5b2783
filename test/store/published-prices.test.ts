import { afterAll, describe, expect, it } from "vitest";
import { openStore, PUBLISHED_PRICES_KEEP_MS, type PublishedPrice } from "../../src/store/index.js";
import { tempDir } from "./helpers/temp-dir.js";

const SLOT = 30 * 60_000;
const DAY = 48 * SLOT;
/** 2026-01-14T22:00:00Z */
const T = Date.UTC(2026, 0, 14, 22);

const slot = (side: PublishedPrice["side"], start: number, price: number): PublishedPrice => ({
  side,
  start,
  end: start + SLOT,
  price,
});

describe("the store's published prices", () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it("keeps a price per side and slot and gives it back after a reopen, by start", () => {
    const path = dir.path("prices.db");
    const store = openStore(path);
    expect(
      store.publishedPrices.save([
        slot("import", T + SLOT, 0.21),
        slot("import", T, 0.2),
        slot("export", T, 0.05),
        { ...slot("import", T + 2 * SLOT, 0.3), reported: "estimated" },
      ]),
    ).toBe(4);
    store.close();
    const again = openStore(path);
    expect(again.publishedPrices.between("import", T, T + 3 * SLOT)).toEqual([
      slot("import", T, 0.2),
      slot("import", T + SLOT, 0.21),
      { ...slot("import", T + 2 * SLOT, 0.3), reported: "estimated" },
    ]);
    expect(again.publishedPrices.between("export", T, T + 3 * SLOT)).toEqual([slot("export", T, 0.05)]);
    // [from, to): the slot starting at `to` is not in it.
    expect(again.publishedPrices.between("import", T + SLOT, T + 2 * SLOT)).toEqual([slot("import", T + SLOT, 0.21)]);
    again.close();
  });

  it("replaces a slot published again, and does not write one that is the same", () => {
    const store = openStore(dir.path("republished.db"));
    store.publishedPrices.save([slot("import", T, 0.2), slot("import", T + SLOT, 0.21)]);
    // The same prices again: nothing written. One changed: that one.
    expect(store.publishedPrices.save([slot("import", T, 0.2), slot("import", T + SLOT, 0.21)])).toBe(0);
    expect(store.publishedPrices.save([slot("import", T, 0.2), slot("import", T + SLOT, 0.25)])).toBe(1);
    expect(store.publishedPrices.between("import", T, T + DAY).map((row) => row.price)).toEqual([0.2, 0.25]);
    store.close();
  });

  it("drops the slots that began before the keeping time, and only those", () => {
    const store = openStore(dir.path("retention.db"));
    const now = T + 500 * DAY;
    const cutoff = now - PUBLISHED_PRICES_KEEP_MS;
    store.publishedPrices.save([
      slot("import", cutoff - SLOT, 0.1),
      slot("export", cutoff - 2 * SLOT, 0.01),
      slot("import", cutoff, 0.2),
      slot("export", now - DAY, 0.02),
    ]);
    expect(PUBLISHED_PRICES_KEEP_MS).toBeGreaterThanOrEqual(62 * DAY);
    expect(store.publishedPrices.applyRetention(now)).toBe(2);
    expect(store.publishedPrices.between("import", 0, now)).toEqual([slot("import", cutoff, 0.2)]);
    expect(store.publishedPrices.between("export", 0, now)).toEqual([slot("export", now - DAY, 0.02)]);
    expect(store.publishedPrices.applyRetention(now)).toBe(0);
    store.close();
  });
});
