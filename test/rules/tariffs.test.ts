import { describe, expect, it } from "vitest";
import { createTariff, FixedTariff, ZonesTariff } from "../../src/rules/tariffs/index.js";
import { iso, utc } from "./helpers.js";

const LONDON = "Europe/London";

describe("fixed tariff", () => {
  it("has one price at every instant and a rate per half-hour", () => {
    const tariff = new FixedTariff(0.245);
    expect(tariff.priceAt(utc("2026-01-01T03:17"))).toBe(0.245);
    const rates = tariff.rates(utc("2026-01-01T00:10"), utc("2026-01-01T02:00"));
    expect(rates.map((rate) => iso(rate.start))).toEqual([
      "2026-01-01T00:00",
      "2026-01-01T00:30",
      "2026-01-01T01:00",
      "2026-01-01T01:30",
    ]);
  });

  it("has nothing to refresh: prices written in rules.yaml never change", async () => {
    const tariff = new FixedTariff(0.245);
    const now = utc("2026-01-01T03:17");
    await tariff.refresh(now);
    expect(tariff.nextRefresh(now)).toBe(Number.POSITIVE_INFINITY);
    expect(tariff.status(now)).toEqual({ message: undefined });
  });
});

describe("zones tariff", () => {
  // Economy 7 style, with a weekend-only afternoon and a winter peak that overrides the rest.
  const tariff = new ZonesTariff(
    0.3,
    [
      { price: 0.12, hours: "23:30-05:30" },
      { price: 0.2, hours: "13:00-16:00", days: ["sat", "sun"] },
      { price: 0.4, hours: "16:00-19:00", months: [11, 12, 1, 2] },
      { price: 0.1, hours: "01:00-02:00" },
    ],
    LONDON,
  );

  it("covers a range that crosses midnight on both sides", () => {
    expect(tariff.priceAt(utc("2026-01-05T23:45"))).toBe(0.12);
    expect(tariff.priceAt(utc("2026-01-06T05:00"))).toBe(0.12);
    expect(tariff.priceAt(utc("2026-01-06T05:30"))).toBe(0.3);
    expect(tariff.priceAt(utc("2026-01-05T23:29"))).toBe(0.3);
  });

  it("lets the last matching zone win", () => {
    expect(tariff.priceAt(utc("2026-01-06T01:15"))).toBe(0.1);
    expect(tariff.priceAt(utc("2026-01-06T02:00"))).toBe(0.12);
  });

  it("matches days and months on the local clock", () => {
    // Saturday 10 January and Monday 12 January 2026.
    expect(tariff.priceAt(utc("2026-01-10T14:00"))).toBe(0.2);
    expect(tariff.priceAt(utc("2026-01-12T14:00"))).toBe(0.3);
    expect(tariff.priceAt(utc("2026-01-12T17:00"))).toBe(0.4);
    // July: no winter peak. 17:00 BST is 16:00 UTC.
    expect(tariff.priceAt(utc("2026-07-13T16:00"))).toBe(0.3);
    // 15:30 UTC in July is 16:30 BST: in the peak hours, but not a winter month.
    expect(tariff.priceAt(utc("2026-07-13T15:30"))).toBe(0.3);
  });

  it("follows summer time: 23:30 local is 22:30 UTC in July", () => {
    expect(tariff.priceAt(utc("2026-07-13T22:30"))).toBe(0.12);
    expect(tariff.priceAt(utc("2026-07-13T22:15"))).toBe(0.3);
  });

  it("gives 46 and 50 half-hourly rates on the clock-change days, with the cheap zone in local hours", () => {
    const spring = tariff.rates(utc("2026-03-29T00:00"), utc("2026-03-29T23:00"));
    const autumn = tariff.rates(utc("2026-10-24T23:00"), utc("2026-10-26T00:00"));
    expect(spring).toHaveLength(46);
    expect(autumn).toHaveLength(50);
    // 25 October: 23:30 BST on the 24th to 05:30 GMT, 13 cheap half-hours after midnight (01:00-02:00 twice) and 23:30-24:00.
    expect(autumn.filter((rate) => rate.price <= 0.12)).toHaveLength(14);
  });

  it("is built from configuration by createTariff", () => {
    const built = createTariff({ type: "zones", price: 0.27, zones: [{ price: 0.085, hours: "00:30-05:30" }] }, LONDON);
    expect(built.type).toBe("zones");
    expect(built.priceAt(utc("2026-11-23T01:00"))).toBe(0.085);
  });
});
