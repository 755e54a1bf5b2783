import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  RequestBudget,
  type SolarForecastConfig,
  SolarForecastFeed,
  solarForecastSchema,
} from "../../../src/rules/forecasts/index.js";
import { fixture, type Served, serve } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "e2m-solar-forecast-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const config = (raw: Record<string, unknown>): SolarForecastConfig => solarForecastSchema.parse(raw);
const total = (samples: readonly { kwh: number }[]) => samples.reduce((sum, sample) => sum + sample.kwh, 0);
const HALF_HOUR = 1_800_000;

describe("Forecast.Solar against its recorded answers", () => {
  it("turns the Wh per period into half-hours, each period ending at its key, one request per array", async () => {
    served = await serve(() => ({ status: 200, body: fixture("forecast-solar-estimate.json") }));
    const feed = new SolarForecastFeed(
      config({
        provider: "forecast.solar",
        latitude: 52.16,
        longitude: 4.47,
        arrays: [{ kwp: 4, tilt: 35, azimuth: 90 }],
        base_url: served.url,
      }),
      { budget: new RequestBudget("forecast.solar", 48) },
    );
    const now = Date.parse("2024-04-26T03:00:00Z");
    await feed.refresh(now);
    const { samples, failure, fetchedAt } = feed.snapshot();
    expect(failure).toBeUndefined();
    expect(fetchedAt).toBe(now);
    // East is -90 from south; the answer's instants carry their offset.
    expect(served.requests.map((request) => request.path)).toEqual(["/estimate/52.16/4.47/35/-90/4?time=iso8601"]);
    // The two days' watt_hours_day as recorded: 6660 + 5338 Wh.
    expect(total(samples)).toBeCloseTo(11.998, 6);
    // 06:20:17-07:00 (+02:00) carries 89 Wh: its 9 min 43 s in 04:00-04:30 UTC, the rest in 04:30-05:00.
    const at = (iso: string) => samples.find((sample) => sample.start === Date.parse(iso))?.kwh;
    expect(at("2024-04-26T04:00:00Z")).toBeCloseTo((0.089 * 583) / 2383, 6);
    expect(at("2024-04-26T04:30:00Z")).toBeCloseTo((0.089 * 1800) / 2383, 6);
    // 10:00-11:00 local (+02:00) is 825 Wh, half in each half-hour.
    expect(at("2024-04-26T08:00:00Z")).toBeCloseTo(0.4125, 6);
    // No period runs across the night between the days.
    expect(at("2024-04-26T23:00:00Z")).toBeUndefined();
  });

  it("a rate-limited answer is a failure that says so, and the last good answer is kept", async () => {
    let limited = false;
    served = await serve(() =>
      limited
        ? { status: 429, body: fixture("forecast-solar-ratelimit.json") }
        : { status: 200, body: fixture("forecast-solar-estimate.json") },
    );
    const feed = new SolarForecastFeed(
      config({
        provider: "forecast.solar",
        latitude: 52.16,
        longitude: 4.47,
        arrays: [{ kwp: 4, tilt: 35, azimuth: 180 }],
        base_url: served.url,
        refresh_minutes: 60,
      }),
      { budget: new RequestBudget("forecast.solar", 48) },
    );
    const now = Date.parse("2024-04-26T03:00:00Z");
    await feed.refresh(now);
    limited = true;
    // Within the refresh interval nothing is asked.
    await feed.refresh(now + 59 * 60_000);
    expect(served.requests).toHaveLength(1);
    await feed.refresh(now + 60 * 60_000);
    expect(served.requests).toHaveLength(2);
    const snapshot = feed.snapshot();
    expect(snapshot.failure).toMatch(/forecast\.solar: .* answered HTTP 429: .*Rate limit for API calls reached/);
    expect(snapshot.fetchedAt).toBe(now);
    expect(total(snapshot.samples)).toBeCloseTo(11.998, 6);
  });
});

describe("Solcast against its recorded answer", () => {
  it("reads mean kW per period as kWh per half-hour, with the key in a header and never in the URL", async () => {
    served = await serve(() => ({ status: 200, body: fixture("solcast-forecasts.json") }));
    const feed = new SolarForecastFeed(
      config({ provider: "solcast", api_key: "secret-key", sites: ["ab12-cd34"], base_url: served.url }),
      { budget: new RequestBudget("solcast", 10) },
    );
    await feed.refresh(Date.parse("2022-07-17T22:00:00Z"));
    const { samples, failure } = feed.snapshot();
    expect(failure).toBeUndefined();
    const request = served.requests[0];
    expect(request?.path).toBe("/rooftop_sites/ab12-cd34/forecasts?format=json&hours=72");
    expect(request?.headers.authorization).toBe("Bearer secret-key");
    // 34 half-hours from the period ending 03:30 UTC to the one ending 20:00.
    expect(samples).toHaveLength(34);
    expect(samples[0]?.start).toBe(Date.parse("2022-07-18T03:00:00Z"));
    // The period ending 10:30 UTC held 2.5295 kW: 1.26475 kWh in the half-hour from 10:00.
    expect(samples.find((sample) => sample.start === Date.parse("2022-07-18T10:00:00Z"))?.kwh).toBeCloseTo(1.26475, 6);
    // Half the sum of the recorded pv_estimate values (kW for half an hour).
    expect(total(samples)).toBeCloseTo(23.1066, 9);
  });

  it("keeps to the hobbyist's 10 calls a day: the 11th is refused without a request until the next UTC day", async () => {
    served = await serve(() => ({ status: 200, body: fixture("solcast-forecasts.json") }));
    const feed = new SolarForecastFeed(
      config({ provider: "solcast", api_key: "k", sites: ["ab12"], base_url: served.url, refresh_minutes: 5 }),
      { budget: new RequestBudget("solcast", 10) },
    );
    const morning = Date.parse("2022-07-18T00:05:00Z");
    for (let call = 0; call < 11; call++) await feed.refresh(morning + call * 5 * 60_000);
    expect(served.requests).toHaveLength(10);
    expect(feed.snapshot().failure).toBe("solcast: the 10 requests a day are spent until 00:00 UTC (daily_requests)");
    // The answer already held is still there for the plan.
    expect(feed.snapshot().samples).toHaveLength(34);
    await feed.refresh(Date.parse("2022-07-19T00:00:00Z"));
    expect(served.requests).toHaveLength(11);
    expect(feed.snapshot().failure).toBeUndefined();
  });

  it("two sources of one service share its budget", async () => {
    served = await serve(() => ({ status: 200, body: fixture("solcast-forecasts.json") }));
    const budget = new RequestBudget("solcast", 1);
    const raw = { provider: "solcast", api_key: "k", sites: ["ab12"], base_url: served.url };
    const first = new SolarForecastFeed(config(raw), { budget });
    const second = new SolarForecastFeed(config(raw), { budget });
    const now = Date.parse("2022-07-18T00:05:00Z");
    await first.refresh(now);
    await second.refresh(now);
    expect(served.requests).toHaveLength(1);
    expect(second.snapshot().failure).toMatch(/requests a day are spent/);
  });
});

describe("Open-Meteo", () => {
  it("reads its recorded answer: local times at utc_offset_seconds, a night of zeros", async () => {
    served = await serve(() => ({ status: 200, body: fixture("open-meteo-forecast.json") }));
    const feed = new SolarForecastFeed(
      config({
        provider: "open-meteo",
        latitude: 52.27,
        longitude: 6.87,
        arrays: [{ kwp: 5, tilt: 30, azimuth: 200 }],
        base_url: served.url,
      }),
      { budget: new RequestBudget("open-meteo", 200) },
    );
    await feed.refresh(Date.parse("2026-10-02T20:00:00Z"));
    const { samples, failure } = feed.snapshot();
    expect(failure).toBeUndefined();
    const query = new URL(served.requests[0]?.path ?? "", served.url).searchParams;
    expect(query.get("hourly")).toBe("global_tilted_irradiance,shortwave_radiation");
    expect([query.get("tilt"), query.get("azimuth"), query.get("timezone")]).toEqual(["30", "20", "GMT"]);
    // 00:00 at +02:00 closes the hour 21:00-22:00 UTC the day before.
    expect(samples.map((sample) => sample.start)).toEqual(
      Array.from({ length: 6 }, (_, index) => Date.parse("2026-10-02T21:00:00Z") + index * HALF_HOUR),
    );
    expect(total(samples)).toBe(0);
  });

  it("turns a recorded day of irradiance on a 35-degree south plane into PV energy (Berlin, January 2023)", async () => {
    served = await serve(() => ({ status: 200, body: fixture("open-meteo-historical-forecast.json") }));
    const feed = new SolarForecastFeed(
      config({
        provider: "open-meteo",
        latitude: 52.52,
        longitude: 13.41,
        arrays: [{ kwp: 4, tilt: 35, azimuth: 180 }],
        performance_ratio: 0.8,
        base_url: served.url,
      }),
      { budget: new RequestBudget("open-meteo", 200) },
    );
    await feed.refresh(Date.parse("2022-12-31T18:00:00Z"));
    const { samples, failure } = feed.snapshot();
    expect(failure).toBeUndefined();
    // 48 hours, two half-hours each, from 23:00 UTC the day before (the hour that 00:00 closes).
    expect(samples).toHaveLength(96);
    expect(samples[0]?.start).toBe(Date.parse("2022-12-31T23:00:00Z"));
    // The recorded 764.7 Wh/m² over the two days x 4 kWp x 0.8.
    expect(total(samples)).toBeCloseTo(2.44704, 9);
    // 12:00 holds 128.9 W/m², the mean of 11:00-12:00: 0.41248 kWh, half in each half-hour.
    const at = (iso: string) => samples.find((sample) => sample.start === Date.parse(iso))?.kwh;
    expect(at("2023-01-01T11:00:00Z")).toBeCloseTo(0.20624, 9);
    expect(at("2023-01-01T11:30:00Z")).toBeCloseTo(0.20624, 9);
    expect(at("2023-01-01T20:00:00Z")).toBe(0);
  });

  it("takes the horizontal irradiance where the tilted one is missing", async () => {
    // Built for this test, not recorded: a missing tilted value, for the horizontal one to stand in.
    const body = JSON.stringify({
      utc_offset_seconds: 0,
      hourly: {
        time: ["2026-06-01T11:00", "2026-06-01T12:00"],
        global_tilted_irradiance: [null, 500],
        shortwave_radiation: [400, 450],
      },
    });
    served = await serve(() => ({ status: 200, body }));
    const feed = new SolarForecastFeed(
      config({
        provider: "open-meteo",
        latitude: 51.5,
        longitude: -0.1,
        arrays: [{ kwp: 4, tilt: 35, azimuth: 180 }],
        performance_ratio: 0.8,
        base_url: served.url,
      }),
      { budget: new RequestBudget("open-meteo", 200) },
    );
    await feed.refresh(Date.parse("2026-06-01T06:00:00Z"));
    // 500 W/m² x 4 kWp x 0.8 for 11:00-12:00: 1.6 kWh, 0.8 per half-hour; the hour before takes shortwave (400).
    expect(feed.snapshot().samples).toEqual([
      { start: Date.parse("2026-06-01T10:00:00Z"), kwh: expect.closeTo(0.64, 9) },
      { start: Date.parse("2026-06-01T10:30:00Z"), kwh: expect.closeTo(0.64, 9) },
      { start: Date.parse("2026-06-01T11:00:00Z"), kwh: expect.closeTo(0.8, 9) },
      { start: Date.parse("2026-06-01T11:30:00Z"), kwh: expect.closeTo(0.8, 9) },
    ]);
  });

  it("an answer of the wrong shape is a failure naming the field", async () => {
    served = await serve(() => ({
      status: 200,
      body: JSON.stringify({ utc_offset_seconds: 0, hourly: { time: "x" } }),
    }));
    const feed = new SolarForecastFeed(
      config({
        provider: "open-meteo",
        latitude: 51.5,
        longitude: -0.1,
        arrays: [{ kwp: 4, tilt: 35, azimuth: 180 }],
        base_url: served.url,
      }),
      { budget: new RequestBudget("open-meteo", 200) },
    );
    await feed.refresh(0);
    expect(feed.snapshot().failure).toMatch(
      /^open-meteo: the answer does not have the expected shape \(hourly\.time: /,
    );
  });
});

describe("a Home Assistant sensor's forecast in a file", () => {
  it("reads the Solcast integration's detailedForecast (kW per half-hour from period_start)", async () => {
    const file = join(dir, "solcast-sensor.json");
    writeFileSync(
      file,
      JSON.stringify({
        entity_id: "sensor.solcast_pv_forecast_forecast_today",
        state: "23.9",
        attributes: {
          detailedForecast: [
            { period_start: "2022-07-18T11:00:00+01:00", pv_estimate: 2.5295 },
            { period_start: "2022-07-18T11:30:00+01:00", pv_estimate: 2.526 },
          ],
        },
      }),
    );
    const feed = new SolarForecastFeed(config({ provider: "home-assistant-file", file }), {
      budget: new RequestBudget("home-assistant-file", 100),
    });
    await feed.refresh(0);
    expect(feed.snapshot().samples).toEqual([
      { start: Date.parse("2022-07-18T10:00:00Z"), kwh: expect.closeTo(1.26475, 9) },
      { start: Date.parse("2022-07-18T10:30:00Z"), kwh: expect.closeTo(1.263, 9) },
    ]);
  });

  it("a missing file is a failure naming it", async () => {
    const file = join(dir, "absent.json");
    const feed = new SolarForecastFeed(config({ provider: "home-assistant-file", file }), {
      budget: new RequestBudget("home-assistant-file", 100),
    });
    await feed.refresh(0);
    expect(feed.snapshot().failure).toContain(`home-assistant-file: cannot read ${file}`);
  });
});

describe("the solar_forecast configuration", () => {
  it("says what to fix", () => {
    const problems = (raw: unknown) =>
      solarForecastSchema.safeParse(raw).error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    expect(problems({ provider: "meteo" })).toEqual([
      "provider: one of forecast.solar, open-meteo, solcast, home-assistant-file, home-assistant-mqtt",
    ]);
    expect(problems({ provider: "open-meteo", latitude: 51, longitude: 0, arrays: [] })).toEqual([
      "arrays: give at least one array as { kwp, tilt, azimuth }",
    ]);
    expect(problems({ provider: "solcast", api_key: "", sites: ["a"] })).toEqual([
      "api_key: the key from the Solcast account page",
    ]);
    expect(solarForecastSchema.parse({ provider: "solcast", api_key: "k", sites: ["a"] })).toMatchObject({
      daily_requests: 10,
      refresh_minutes: 180,
    });
  });
});
