import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadRules } from "../../../src/rules/file/load.js";
import { octopusTariffSchema } from "../../../src/rules/file/tariff-schema.js";
import { createTariff, OctopusCache, OctopusTariff, type Tariff } from "../../../src/rules/tariffs/index.js";
import { iso, problemsOf, rulesFile, utc } from "../helpers.js";
import { OctopusServer } from "./octopus-server.js";

const LONDON = "Europe/London";
const AGILE = "AGILE-24-10-01";
const COSY = "COSY-22-12-08";
const FLUX_EXPORT = "FLUX-EXPORT-23-02-14";
const FLEXIBLE = "VAR-22-11-01";

const server = new OctopusServer();

/** A tariff of `product` in `region` on the local server, with a cache of its own unless given. */
function octopus(
  product: string,
  region: string,
  options: { payment?: string; cache?: OctopusCache; fallback?: number; nightHours?: string } = {},
): OctopusTariff {
  const config = octopusTariffSchema.parse({
    type: "octopus",
    product,
    region,
    base_url: server.baseUrl,
    ...(options.payment ? { payment: options.payment } : {}),
    ...(options.nightHours ? { night_hours: options.nightHours } : {}),
  });
  const fallback =
    options.fallback === undefined ? undefined : createTariff({ type: "fixed", price: options.fallback }, LONDON);
  return new OctopusTariff(config, LONDON, fallback, options.cache ?? new OctopusCache());
}

const slots = (tariff: Tariff, from: string, to: string) =>
  tariff.rates(utc(from), utc(to)).map((rate) => [iso(rate.start), rate.price, rate.estimated]);

beforeAll(async () => {
  await server.start();
  // Agile in pages of 40, so that the client must follow `next` twice.
  server.serve(AGILE, `E-1R-${AGILE}-H`, "standard-unit-rates", "agile-24-10-01-H.standard-unit-rates.json", 40);
  server.serve(AGILE, `E-1R-${AGILE}-H`, "standing-charges", "agile-24-10-01.standing-charges.json");
  server.serve(COSY, `E-1R-${COSY}-A`, "standard-unit-rates", "cosy-22-12-08.standard-unit-rates.json");
  server.serve(
    FLUX_EXPORT,
    `E-1R-${FLUX_EXPORT}-C`,
    "standard-unit-rates",
    "flux-export-23-02-14-C.standard-unit-rates.json",
  );
  server.serve(FLEXIBLE, `E-1R-${FLEXIBLE}-A`, "standing-charges", "var-22-11-01-A.standing-charges.json");
  // The recorded day and night lists of a two-rate tariff (the source names no tariff code).
  server.serve(FLEXIBLE, `E-2R-${FLEXIBLE}-B`, "day-unit-rates", "e-2r.day-unit-rates.json");
  server.serve(FLEXIBLE, `E-2R-${FLEXIBLE}-B`, "night-unit-rates", "e-2r.night-unit-rates.json");
});
afterAll(async () => {
  await server.stop();
});
beforeEach(() => {
  server.requests.length = 0;
  server.failWith = undefined;
});

describe("octopus tariff: Agile half-hours by product and region", () => {
  it("builds the tariff code, follows every page and reads all 100 recorded half-hours in pounds", async () => {
    const tariff = octopus(AGILE, "H");
    expect(await tariff.load(utc("2025-05-13T10:00"))).toBe(true);
    // From the start of the UTC day before, in the API's largest pages.
    const list = `/v1/products/${AGILE}/electricity-tariffs/E-1R-${AGILE}-H/standard-unit-rates/`;
    const since = "period_from=2025-05-12T00%3A00%3A00Z&page_size=1500";
    expect(server.requests.filter((url) => url.includes("standard-unit-rates"))).toEqual([
      `${list}?period_from=2025-05-12T00:00:00Z&page_size=1500`,
      `${list}?${since}&page=2`,
      `${list}?${since}&page=3`,
    ]);
    const rates = tariff.rates(utc("2025-05-11T20:00"), utc("2025-05-13T22:00"));
    expect(rates).toHaveLength(100);
    expect(rates.every((rate) => !rate.estimated)).toBe(true);
    expect(tariff.priceAt(utc("2025-05-11T20:10"))).toBe(0.18795);
    expect(tariff.priceAt(utc("2025-05-12T17:30"))).toBe(0.343665);
    expect(tariff.priceAt(utc("2025-05-13T21:59"))).toBe(0.17283);
    expect(tariff.priceAt(utc("2025-05-13T22:00"))).toBeUndefined();
  });

  it("has today's prices to 23:00 UK time before 16:00, and asks for tomorrow's after it", async () => {
    const morning = utc("2025-05-13T10:00");
    const tariff = octopus(AGILE, "H", { fallback: 0.3 });
    await tariff.load(morning);
    expect(tariff.status(morning)).toEqual({
      until: utc("2025-05-13T22:00"),
      tomorrowMissing: false,
      message: undefined,
    });
    expect(iso(tariff.nextRefresh(morning))).toBe("2025-05-13T15:00");

    const evening = utc("2025-05-13T16:00");
    await tariff.load(evening);
    expect(tariff.status(evening).message).toBe(
      "tomorrow's prices are not published yet (published prices end 2025-05-13 23:00); slots without a price use the fallback (marked estimated)",
    );
    expect(iso(tariff.nextRefresh(evening))).toBe("2025-05-13T16:30");
    expect(slots(tariff, "2025-05-13T21:30", "2025-05-13T22:30")).toEqual([
      ["2025-05-13T21:30", 0.17283, false],
      ["2025-05-13T22:00", 0.3, true],
    ]);
  });

  it("reads the standing charge per day in pounds from the day it starts", async () => {
    const tariff = octopus(AGILE, "H");
    await tariff.load(utc("2025-05-13T10:00"));
    expect(tariff.standingChargePerDay(utc("2025-05-13T10:00"))).toBe(0.476062);
    expect(tariff.standingChargePerDay(utc("2025-03-31T22:59"))).toBeUndefined();
  });
});

describe("octopus tariff: time-of-use products land on the half-hour grid from their windows", () => {
  it("Cosy: the recorded day's seven windows give 16 cheap half-hours, the peak and the day rate", async () => {
    const tariff = octopus(COSY, "A");
    await tariff.load(utc("2025-03-03T00:00"));
    const day = tariff.rates(utc("2025-03-03T00:00"), utc("2025-03-04T00:00"));
    expect(day).toHaveLength(48);
    expect(day.filter((rate) => rate.price === 0.132317)).toHaveLength(16);
    expect(day.filter((rate) => rate.price === 0.404723)).toHaveLength(6);
    expect(tariff.priceAt(utc("2025-03-03T03:30"))).toBe(0.269814);
    expect(tariff.priceAt(utc("2025-03-03T04:00"))).toBe(0.132317);
    expect(tariff.priceAt(utc("2025-03-03T16:30"))).toBe(0.404723);
    expect(tariff.priceAt(utc("2025-03-03T23:30"))).toBe(0.132317);
    expect(tariff.priceAt(utc("2025-03-04T00:00"))).toBeUndefined();
  });

  it("Flux export: the peak 16:00-19:00 and the day rate to 02:00, UK summer time", async () => {
    const tariff = octopus(FLUX_EXPORT, "C");
    await tariff.load(utc("2023-06-02T12:00"));
    expect(slots(tariff, "2023-06-02T14:30", "2023-06-02T15:30")).toEqual([["2023-06-02T15:00", 0.375588, false]]);
    expect(tariff.priceAt(utc("2023-06-02T17:30"))).toBe(0.375588);
    expect(tariff.priceAt(utc("2023-06-02T18:00"))).toBe(0.236849);
    expect(tariff.priceAt(utc("2023-06-03T00:30"))).toBe(0.236849);
    expect(tariff.priceAt(utc("2023-06-03T01:00"))).toBeUndefined();
  });
});

describe("octopus tariff: a two-rate (day and night) meter", () => {
  it("asks for the E-2R tariff's day and night lists and prices the night hours at the night rate", async () => {
    const now = utc("2024-06-01T12:00");
    const tariff = octopus(FLEXIBLE, "B", { nightHours: "00:30-07:30" });
    expect(await tariff.load(now)).toBe(false); // no standing charges for this code on the local server
    expect(server.requests.filter((url) => !url.includes("standing-charges"))).toEqual([
      `/v1/products/${FLEXIBLE}/electricity-tariffs/E-2R-${FLEXIBLE}-B/day-unit-rates/?period_from=2024-05-31T00:00:00Z&page_size=1500`,
      `/v1/products/${FLEXIBLE}/electricity-tariffs/E-2R-${FLEXIBLE}-B/night-unit-rates/?period_from=2024-05-31T00:00:00Z&page_size=1500`,
    ]);
    // UK summer time: local 00:30-07:30 is 23:30-06:30 UTC.
    expect(slots(tariff, "2024-06-01T23:00", "2024-06-02T00:00")).toEqual([
      ["2024-06-01T23:00", 0.315084, false],
      ["2024-06-01T23:30", 0.132174, false],
    ]);
    expect(tariff.priceAt(utc("2024-06-02T06:00"))).toBe(0.132174);
    expect(tariff.priceAt(utc("2024-06-02T06:30"))).toBe(0.315084);
  });

  it("lays a price in force until changed over a day back and two days ahead only, at the chosen payment method", async () => {
    const now = utc("2024-06-01T12:00");
    const tariff = octopus(FLEXIBLE, "B", { nightHours: "00:30-07:30", payment: "non_direct_debit" });
    await tariff.load(now);
    expect(tariff.priceAt(now)).toBe(0.321867);
    expect(tariff.priceAt(utc("2024-05-31T12:00"))).toBe(0.321867);
    expect(tariff.priceAt(utc("2024-05-31T11:30"))).toBeUndefined();
    expect(tariff.priceAt(utc("2024-06-03T11:30"))).toBe(0.321867);
    expect(tariff.priceAt(utc("2024-06-03T12:00"))).toBeUndefined();
    expect(tariff.rates(utc("2024-05-31T00:00"), utc("2024-06-04T00:00"))).toHaveLength(3 * 48);
  });
});

describe("octopus tariff: payment method, errors, failures and the request budget", () => {
  it("takes the standing charge of the chosen payment method, for the period in force", async () => {
    const now = utc("2024-06-01T12:00");
    const debit = octopus(FLEXIBLE, "A");
    await debit.load(now);
    expect(debit.standingChargePerDay(now)).toBe(0.478485);
    expect(debit.standingChargePerDay(utc("2023-06-01T12:00"))).toBe(0.420131);
    expect(debit.standingChargePerDay(utc("2022-10-31T12:00"))).toBeUndefined();
    const card = octopus(FLEXIBLE, "A", { payment: "non_direct_debit" });
    await card.load(now);
    expect(card.standingChargePerDay(now)).toBe(0.533295);
  });

  it("a product the API does not know is answered with the tariff code to check", async () => {
    const now = utc("2024-06-01T12:00");
    const tariff = octopus("AGILE-99-01-01", "C");
    expect(await tariff.load(now)).toBe(false);
    const error = tariff.status(now).error ?? "";
    expect(error).toContain(
      `${server.baseUrl}/v1/products/AGILE-99-01-01/electricity-tariffs/E-1R-AGILE-99-01-01-C/standard-unit-rates/?period_from=2024-05-31T00:00:00Z&page_size=1500: HTTP 404: Octopus has no tariff E-1R-AGILE-99-01-01-C; check product (AGILE-99-01-01) and region (C) against the tariff code on your bill or in the Octopus app`,
    );
    expect(error).toContain(
      "E-1R-AGILE-99-01-01-C/standing-charges/?period_from=2024-05-31T00:00:00Z&page_size=1500: HTTP 404",
    );
    expect(tariff.status(now).message).toContain("no published price for now");
  });

  it("unit rates that fail do not stop the standing charge being read", async () => {
    // The local server holds only this tariff's standing charges.
    const now = utc("2024-06-01T12:00");
    const tariff = octopus(FLEXIBLE, "A");
    expect(await tariff.load(now)).toBe(false);
    expect(tariff.status(now).error).toContain(
      `E-1R-${FLEXIBLE}-A/standard-unit-rates/?period_from=2024-05-31T00:00:00Z&page_size=1500: HTTP 404`,
    );
    expect(tariff.status(now).error).not.toContain("standing-charges");
    expect(tariff.standingChargePerDay(now)).toBe(0.478485);
  });

  it("a failed refresh keeps the last prices, says what failed, and retries after the refresh interval", async () => {
    const first = utc("2025-05-13T10:00");
    const tariff = octopus(AGILE, "H");
    await tariff.refresh(first);
    server.failWith = 503;
    const later = utc("2025-05-13T10:31");
    await expect(tariff.refresh(later)).resolves.toBeUndefined();
    expect(tariff.status(later).error).toContain(
      `E-1R-${AGILE}-H/standard-unit-rates/?period_from=2025-05-12T00:00:00Z&page_size=1500: HTTP 503`,
    );
    expect(tariff.status(later).error).toContain(
      `E-1R-${AGILE}-H/standing-charges/?period_from=2025-05-12T00:00:00Z&page_size=1500: HTTP 503`,
    );
    expect(tariff.priceAt(utc("2025-05-13T21:30"))).toBe(0.17283);
    expect(tariff.standingChargePerDay(later)).toBe(0.476062);
    expect(iso(tariff.nextRefresh(later))).toBe("2025-05-13T11:01");
  });

  it("fetches each list once per refresh window, however many tariffs name the product and region", async () => {
    const cache = new OctopusCache();
    const start = utc("2025-05-13T10:00");
    await octopus(AGILE, "H", { cache }).load(start);
    await octopus(AGILE, "H", { cache }).load(start + 10 * 60_000);
    expect(server.count("page=3")).toBe(1);
    expect(server.count("standing-charges")).toBe(1);
    expect(cache.fetches).toBe(2);
    await octopus(AGILE, "H", { cache }).load(start + 30 * 60_000);
    expect(server.count("page=3")).toBe(2);
    expect(cache.fetches).toBe(4);
  });
});

describe("octopus tariff in rules.yaml", () => {
  const rules = (tariff: string) => rulesFile(["tariffs:", `  import: ${tariff}`, "rules: []"]);

  it("loads with the public API, direct debit and pence-to-pounds as defaults", () => {
    const loaded = loadRules(rules(`{ type: octopus, product: ${AGILE}, region: H }`));
    expect(loaded.rules.tariffs.import).toEqual({
      type: "octopus",
      product: AGILE,
      region: "H",
      payment: "direct_debit",
      base_url: "https://api.octopus.energy",
      refresh: 30 * 60_000,
      published_at: "16:00",
      scale: 0.01,
    });
    const config = loaded.rules.tariffs.import;
    if (!config) throw new Error("no import tariff");
    expect(createTariff(config, LONDON).type).toBe("octopus");
  });

  it("refuses a region that is not a GSP letter, naming the valid ones", () => {
    const problems = problemsOf(() => loadRules(rules(`{ type: octopus, product: ${AGILE}, region: I }`))).join("\n");
    expect(problems).toContain("one of A B C D E F G H J K L M N P");
  });

  it("refuses night hours off the half-hour grid, naming the nearest on it", () => {
    const problems = problemsOf(() =>
      loadRules(rules(`{ type: octopus, product: ${FLEXIBLE}, region: B, night_hours: "00:40-07:40" }`)),
    ).join("\n");
    expect(problems).toContain("use 00:30-07:30");
  });

  it("refuses a product that is not an Octopus product code, with an example", () => {
    const problems = problemsOf(() => loadRules(rules("{ type: octopus, product: agile, region: C }"))).join("\n");
    expect(problems).toContain("expected an Octopus product code in capitals, like AGILE-24-10-01");
  });
});
