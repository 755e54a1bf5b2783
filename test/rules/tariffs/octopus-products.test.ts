import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { octopusTariffSchema } from "../../../src/rules/file/tariff-schema.js";
import { OctopusCache, OctopusTariff } from "../../../src/rules/tariffs/index.js";
import { utc } from "../helpers.js";
import { OctopusServer } from "./octopus-server.js";

/*
 * Go, Tracker and Flux import by product and region, on bodies built in the API's format (no
 * recorded ones were found in public repositories: see test/fixtures/octopus/README.md), each
 * with its standing charge; prices in pounds including VAT, the windows placed in UK time.
 */

const LONDON = "Europe/London";
const GO = "GO-VAR-22-10-14";
const TRACKER = "SILVER-24-12-31";
const FLUX = "FLUX-IMPORT-23-02-14";
const FLUX_EXPORT = "FLUX-EXPORT-23-02-14";
const FLEXIBLE = "VAR-22-11-01";

const server = new OctopusServer();
const local = new Intl.DateTimeFormat("en-GB", { timeZone: LONDON, hour: "2-digit", minute: "2-digit" });

function octopus(product: string, payment?: "non_direct_debit", region = "C", nightHours?: string): OctopusTariff {
  const config = octopusTariffSchema.parse({
    type: "octopus",
    product,
    region,
    base_url: server.baseUrl,
    ...(payment ? { payment } : {}),
    ...(nightHours ? { night_hours: nightHours } : {}),
  });
  return new OctopusTariff(config, LONDON, undefined, new OctopusCache());
}

/** The half-hours of [from, to) at `price`, as local start times. */
function at(tariff: OctopusTariff, from: string, to: string, price: number): string[] {
  return tariff
    .rates(utc(from), utc(to))
    .filter((rate) => rate.price === price)
    .map((rate) => local.format(rate.start));
}

beforeAll(async () => {
  await server.start();
  for (const [product, file] of [
    [GO, "go-var-22-10-14-C"],
    [TRACKER, "silver-24-12-31-C"],
    [FLUX, "flux-import-23-02-14-C"],
  ] as const) {
    server.serve(product, `E-1R-${product}-C`, "standard-unit-rates", `${file}.standard-unit-rates.json`);
    server.serve(product, `E-1R-${product}-C`, "standing-charges", `${file}.standing-charges.json`);
  }
  server.serve(
    FLUX_EXPORT,
    `E-1R-${FLUX_EXPORT}-C`,
    "standard-unit-rates",
    "flux-export-23-02-14-C.standard-unit-rates.json",
  );
  // The recorded day and night lists of a two-rate tariff (the source names no tariff code).
  server.serve(FLEXIBLE, `E-2R-${FLEXIBLE}-B`, "day-unit-rates", "e-2r.day-unit-rates.json");
  server.serve(FLEXIBLE, `E-2R-${FLEXIBLE}-B`, "night-unit-rates", "e-2r.night-unit-rates.json");
});
afterAll(async () => {
  await server.stop();
});

describe("Octopus Go by product and region", () => {
  it("cheap from 00:30 to 05:30 UK time every night, the night the clocks go forward an hour shorter", async () => {
    const tariff = octopus(GO);
    await tariff.load(utc("2024-03-31T12:00"));
    expect(tariff.error).toBeUndefined();
    expect(
      server.requests.some((path) => path.startsWith(`/v1/products/${GO}/electricity-tariffs/E-1R-${GO}-C/`)),
    ).toBe(true);
    // 8.5p and 27.25p including VAT, in pounds.
    const night = 0.085;
    const nights = [
      at(tariff, "2024-03-30T00:00", "2024-03-30T12:00", night),
      at(tariff, "2024-03-31T00:00", "2024-03-31T12:00", night),
      at(tariff, "2024-03-31T23:00", "2024-04-01T12:00", night),
    ];
    for (const one of nights) {
      expect(one[0]).toBe("00:30");
      expect(one.at(-1)).toBe("05:00");
    }
    // GMT, then the short night (00:30 GMT to 05:30 BST is four hours), then BST.
    expect(nights.map((one) => one.length)).toEqual([10, 8, 10]);
    expect(tariff.priceAt(utc("2024-03-31T04:00"))).toBe(night);
    expect(tariff.priceAt(utc("2024-03-31T04:30"))).toBe(0.2725);
    expect(tariff.priceAt(utc("2024-03-31T23:00"))).toBe(0.2725);
    expect(tariff.priceAt(utc("2024-03-31T23:30"))).toBe(night);
  });

  it("its standing charge per day, by payment method, changing at UK midnight on 1 April", async () => {
    const direct = octopus(GO);
    await direct.load(utc("2024-03-31T12:00"));
    expect(direct.standingChargePerDay(utc("2024-03-31T22:59"))).toBe(0.4725);
    expect(direct.standingChargePerDay(utc("2024-03-31T23:00"))).toBe(0.42105);
    const other = octopus(GO, "non_direct_debit");
    await other.load(utc("2024-03-31T12:00"));
    expect(other.standingChargePerDay(utc("2024-03-31T12:00"))).toBe(0.4956);
    expect(other.standingChargePerDay(utc("2024-04-01T12:00"))).toBe(0.44415);
  });
});

describe("Octopus Tracker by product and region", () => {
  it("one price a UK day, local midnight to local midnight: 46 half-hours on 31 March 2024", async () => {
    const tariff = octopus(TRACKER);
    await tariff.load(utc("2024-03-31T12:00"));
    const day = (from: string, to: string) => tariff.rates(utc(from), utc(to));
    expect(new Set(day("2024-03-30T00:00", "2024-03-31T00:00").map((rate) => rate.price))).toEqual(new Set([0.213465]));
    const short = day("2024-03-31T00:00", "2024-03-31T23:00");
    expect(short).toHaveLength(46);
    expect(new Set(short.map((rate) => rate.price))).toEqual(new Set([0.196455]));
    expect(tariff.priceAt(utc("2024-03-31T23:00"))).toBe(0.20496);
    expect(tariff.standingChargePerDay(utc("2024-03-31T12:00"))).toBe(0.45675);
  });
});

describe("Octopus Flux by product and region: import and export", () => {
  it("cheap 02:00-05:00 and the peak 16:00-19:00 UK summer time, against the recorded export's peak", async () => {
    const imports = octopus(FLUX);
    const exports = octopus(FLUX_EXPORT);
    await Promise.all([imports.load(utc("2023-06-02T12:00")), exports.load(utc("2023-06-02T12:00"))]);
    expect(at(imports, "2023-06-01T23:00", "2023-06-02T23:00", 0.17976)).toEqual([
      "02:00",
      "02:30",
      "03:00",
      "03:30",
      "04:00",
      "04:30",
    ]);
    expect(at(imports, "2023-06-01T23:00", "2023-06-02T23:00", 0.41958)).toEqual([
      "16:00",
      "16:30",
      "17:00",
      "17:30",
      "18:00",
      "18:30",
    ]);
    // At the peak the export earns 37.6p while the import costs 42.0p; the day rate after it.
    expect(exports.priceAt(utc("2023-06-02T15:00"))).toBe(0.375588);
    expect(imports.priceAt(utc("2023-06-02T18:00"))).toBe(0.29967);
    expect(imports.standingChargePerDay(utc("2023-06-02T12:00"))).toBe(0.48678);
  });
});

describe("past prices, for the costs of past days", () => {
  it("asks from the day given and lays a price in force until changed back to it", async () => {
    const now = utc("2024-04-20T12:00");
    const recent = octopus(FLEXIBLE, undefined, "B", "00:30-07:30");
    await recent.load(now);
    // A refresh lays it a day back only.
    expect(recent.priceAt(utc("2024-04-10T12:00"))).toBeUndefined();
    const past = octopus(FLEXIBLE, undefined, "B", "00:30-07:30");
    // No standing charges are served for it: only they fail.
    await past.loadSince(utc("2024-04-10T00:00"), now);
    expect(past.error).toContain("standing-charges");
    expect(past.error).not.toContain("unit-rates");
    expect(server.requests).toContain(
      `/v1/products/${FLEXIBLE}/electricity-tariffs/E-2R-${FLEXIBLE}-B/day-unit-rates/?period_from=2024-04-10T00:00:00Z&page_size=1500`,
    );
    // The recorded April 2024 rates by direct debit: 31.5084p by day, 13.2174p at night (BST).
    expect(past.priceAt(utc("2024-04-10T12:00"))).toBe(0.315084);
    expect(past.priceAt(utc("2024-04-10T00:00"))).toBe(0.132174);
  });
});
