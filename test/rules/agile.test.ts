import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgileTariffConfig } from "../../src/rules/file/schema.js";
import { AgileTariff, createTariff, FixedTariff, type Tariff } from "../../src/rules/tariffs/index.js";
import { iso, utc } from "./helpers.js";

const FIXTURE = new URL("../fixtures/octopus-agile-prices.example.json", import.meta.url).pathname;
const LONDON = "Europe/London";

const config = (source: { file: string } | { url: string }): AgileTariffConfig => ({
  type: "agile",
  ...source,
  refresh: 30 * 60_000,
  published_at: "16:00",
  scale: 0.01,
});

describe("agile tariff", () => {
  it("reads the Octopus file: 48 half-hours in pounds, negative slot included", async () => {
    const tariff = new AgileTariff(config({ file: FIXTURE }), LONDON, undefined);
    expect(await tariff.load(utc("2026-11-22T23:00"))).toBe(true);
    const rates = tariff.rates(utc("2026-11-22T23:00"), utc("2026-11-23T23:00"));
    expect(rates).toHaveLength(48);
    expect(rates.every((rate) => !rate.estimated)).toBe(true);
    expect(tariff.priceAt(utc("2026-11-23T22:45"))).toBe(0.1504);
    expect(Math.min(...rates.map((rate) => rate.price))).toBeLessThan(0);
    expect(tariff.priceAt(utc("2026-11-23T23:00"))).toBeUndefined();
  });

  it("needs nothing more at 23:00 when the next day is all there, and looks again at 16:00 tomorrow", async () => {
    const now = utc("2026-11-22T23:00");
    const tariff = new AgileTariff(config({ file: FIXTURE }), LONDON, undefined);
    await tariff.load(now);
    expect(tariff.status(now)).toEqual({ until: utc("2026-11-23T23:00"), tomorrowMissing: false, message: undefined });
    expect(iso(tariff.nextRefresh(now))).toBe("2026-11-23T16:00");
  });

  it("says clearly when tomorrow's prices are missing after 16:00, falls back, and retries every refresh", async () => {
    const now = utc("2026-11-23T17:10");
    const tariff = new AgileTariff(config({ file: FIXTURE }), LONDON, new FixedTariff(0.3));
    await tariff.load(now);
    const status = tariff.status(now);
    expect(status.tomorrowMissing).toBe(true);
    expect(status.message).toBe(
      "tomorrow's prices are not published yet (published prices end 2026-11-23 23:00); slots without a price use the fallback (marked estimated)",
    );
    const rates = tariff.rates(utc("2026-11-23T22:00"), utc("2026-11-24T00:00"));
    expect(rates.map((rate) => [iso(rate.start), rate.price, rate.estimated])).toEqual([
      ["2026-11-23T22:00", 0.1525, false],
      ["2026-11-23T22:30", 0.1504, false],
      ["2026-11-23T23:00", 0.3, true],
      ["2026-11-23T23:30", 0.3, true],
    ]);
    expect(iso(tariff.nextRefresh(now))).toBe("2026-11-23T17:40");
  });

  it("before 16:00 with today complete, waits for the publishing time", async () => {
    const now = utc("2026-11-23T09:00");
    const tariff = new AgileTariff(config({ file: FIXTURE }), LONDON, undefined);
    await tariff.load(now);
    expect(tariff.status(now).message).toBeUndefined();
    expect(iso(tariff.nextRefresh(now))).toBe("2026-11-23T16:00");
  });

  it("keeps its prices when a refresh fails, says why, and retries after the refresh interval", async () => {
    const now = utc("2026-11-23T09:00");
    const tariff = new AgileTariff(config({ file: FIXTURE }), LONDON, undefined);
    await tariff.load(now);
    const broken = new AgileTariff(config({ file: `${FIXTURE}.missing` }), LONDON, undefined);
    expect(await broken.load(now)).toBe(false);
    expect(broken.error).toContain("ENOENT");
    expect(iso(broken.nextRefresh(now))).toBe("2026-11-23T09:30");
    expect(broken.status(now).message).toContain("no published price for now");
  });

  it("refreshes itself through the Tariff seam: a failure never throws and shows in status().error", async () => {
    const now = utc("2026-11-23T09:00");
    const tariff: Tariff = createTariff({ ...config({ file: `${FIXTURE}.missing` }), type: "agile" }, LONDON);
    await expect(tariff.refresh(now)).resolves.toBeUndefined();
    expect(tariff.status(now).error).toContain("ENOENT");
    expect(iso(tariff.nextRefresh(now))).toBe("2026-11-23T09:30");
    const working: Tariff = createTariff(config({ file: FIXTURE }), LONDON);
    expect(working.nextRefresh(now)).toBe(now);
    await working.refresh(now);
    expect(working.status(now).error).toBeUndefined();
    expect(working.priceAt(utc("2026-11-23T03:00"))).toBeTypeOf("number");
  });

  describe("from a URL", () => {
    let server: Server;
    let base: string;
    let requests: string[];
    const fixture = JSON.parse(readFileSync(FIXTURE, "utf8")) as { results: unknown[] };

    beforeAll(async () => {
      requests = [];
      // Two pages, as the Octopus API pages its results with `next`.
      server = createServer((request, response) => {
        requests.push(request.url ?? "");
        const page = request.url?.includes("page=2") ? 2 : 1;
        const results = page === 1 ? fixture.results.slice(0, 24) : fixture.results.slice(24);
        const next = page === 1 ? `${base}/rates/?page=2` : null;
        if (request.url?.startsWith("/broken")) {
          response.writeHead(503).end();
          return;
        }
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ count: 48, next, previous: null, results }));
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const address = server.address();
      base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    });
    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve));
    });

    it("follows the pages and reads every slot", async () => {
      const tariff = new AgileTariff(config({ url: `${base}/rates/` }), LONDON, undefined);
      expect(await tariff.load(utc("2026-11-22T23:00"))).toBe(true);
      expect(requests).toEqual(["/rates/", "/rates/?page=2"]);
      expect(tariff.rates(utc("2026-11-22T23:00"), utc("2026-11-23T23:00"))).toHaveLength(48);
      expect(tariff.priceAt(utc("2026-11-22T23:15"))).toBe(0.1542);
    });

    it("reports an HTTP error and plans without prices", async () => {
      const tariff = new AgileTariff(config({ url: `${base}/broken` }), LONDON, undefined);
      expect(await tariff.load(utc("2026-11-22T23:00"))).toBe(false);
      expect(tariff.error).toBe(`${base}/broken: HTTP 503`);
      expect(tariff.rates(utc("2026-11-22T23:00"), utc("2026-11-23T00:00"))).toEqual([]);
    });
  });
});
