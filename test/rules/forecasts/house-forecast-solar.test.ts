import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  providerBias,
  RequestBudget,
  SolarForecastFeed,
  solarForecastSchema,
} from "../../../src/rules/forecasts/index.js";
import { houseForecast, houseForecaster, withProviderSolar } from "../../../src/rules/house/house-forecast.js";
import { planOptimiseWindows } from "../../../src/rules/planners/optimise-windows.js";
import type { Rate } from "../../../src/rules/tariffs/index.js";
import { openStore, type Store } from "../../../src/store/index.js";
import { fixture, inverterPoints, type Served, serve } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "e2m-house-solar-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let served: Served | undefined;
let store: Store | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
  store?.close();
  store = undefined;
});

const TZ = "Europe/London";
const SLOT = 1_800_000;
const DAY = 86_400_000;
// 23:00 BST on Sunday 17 July 2022: the recorded Solcast answer covers the next day.
const NOW = Date.parse("2022-07-17T22:00:00Z");
const SPEC = { horizon_hours: 24, reserve_soc: 10, discharge_efficiency: 0.95, change_cost: 0.002 };

/** A fortnight of dull days: 300 W of solar at best, 500 W of consumption all day. */
function dullFortnight(): Store {
  const opened = openStore(join(dir, `store-${Math.random().toString(36).slice(2)}.db`));
  opened.history.write(
    inverterPoints(NOW - 14 * DAY, NOW, (at) => {
      const hour = (((at / 3_600_000) % 24) + 24) % 24;
      const solar = hour >= 5 && hour < 19 ? Math.round(300 * Math.sin(((hour - 5) / 14) * Math.PI)) : 0;
      return { solar, consumption: 500 };
    }),
  );
  return opened;
}

/** Cheap nights (00:00-07:00 local), dear days, a dearer evening peak; exports pay little. */
function rates(of: "import" | "export"): Rate[] {
  return Array.from({ length: 48 }, (_, index) => {
    const start = NOW + index * SLOT;
    const hour = (new Date(start).getUTCHours() + 1) % 24;
    const price = of === "export" ? 0.04 : hour < 7 ? 0.07 : hour >= 16 && hour < 19 ? 0.35 : 0.25;
    return { start, end: start + SLOT, price, estimated: false };
  });
}

function plan(house: ReturnType<typeof houseForecast>) {
  return planOptimiseWindows({
    spec: SPEC,
    now: NOW,
    to: NOW + DAY,
    importRates: rates("import"),
    exportRates: rates("export"),
    house,
    soc: 20,
    capacityKwh: 10,
    chargeKw: 3,
    chargeEfficiency: 0.95,
  });
}

/** kWh the plan puts into the battery from the grid overnight: the SoC it reaches by 07:00 local, from 20%. */
const nightCharge = (result: ReturnType<typeof plan>) => {
  const morning = result.soc.find((point) => point.at === NOW + 16 * SLOT);
  return (((morning?.soc ?? 20) - 20) / 100) * 10;
};

describe("the optimise rule's house forecast with a solar provider", () => {
  it("a sunny Solcast forecast makes the plan buy less from the grid overnight than the learned dull profile", async () => {
    store = dullFortnight();
    served = await serve(() => ({ status: 200, body: fixture("solcast-forecasts.json") }));
    const config = solarForecastSchema.parse({
      provider: "solcast",
      api_key: "k",
      sites: ["ab12"],
      base_url: served.url,
    });
    const house = houseForecaster(store, { timeZone: TZ, config });
    await house.refresh(NOW);
    const sunny = house.forecast(NOW);
    const learned = houseForecast(store.history, { now: NOW, timeZone: TZ });
    expect(sunny.solarFrom).toBe("solcast");
    expect(learned.solarFrom).toBe("learned");
    const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
    expect(sum(sunny.solar.slice(0, 48))).toBeCloseTo(23.1066, 3);
    expect(sum(learned.solar.slice(0, 48))).toBeLessThan(3);
    // The load forecast is the same either way: only the solar changed.
    expect(sunny.load).toEqual(learned.load);
    const withSun = plan(sunny);
    const withoutSun = plan(learned);
    expect(nightCharge(withoutSun)).toBeGreaterThan(4);
    expect(nightCharge(withSun)).toBeLessThan(nightCharge(withoutSun) - 2);
    // The answer was kept in the store, half-hour by half-hour, for the check against actual.
    expect(store.solarForecasts.between("solcast", NOW, NOW + DAY)).toHaveLength(34);
  });

  it("a provider that fails leaves the plan on the learned profile, saying why", async () => {
    store = dullFortnight();
    served = await serve(() => ({ status: 503, body: JSON.stringify({ response_status: { message: "busy" } }) }));
    const config = solarForecastSchema.parse({
      provider: "solcast",
      api_key: "k",
      sites: ["ab12"],
      base_url: served.url,
    });
    const warnings: string[] = [];
    const logger = {
      info: () => undefined,
      warn: (_fields: object, message: string) => {
        warnings.push(message);
      },
    };
    const house = houseForecaster(store, { timeZone: TZ, config, logger });
    await house.refresh(NOW);
    const forecast = house.forecast(NOW);
    const learned = houseForecast(store.history, { now: NOW, timeZone: TZ });
    expect(forecast.solarFrom).toMatch(
      /^learned \(solcast failed: solcast: http:\/\/127\.0\.0\.1:\d+\/rooftop_sites\/ab12\/forecasts answered HTTP 503: .*busy/,
    );
    expect(forecast.solar).toEqual(learned.solar);
    expect(plan(forecast).windows.length).toBeGreaterThan(0);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^solar forecast failed \(the last good answer serves up to 6 h, then the learned profile\): solcast: .* answered HTTP 503/,
    );
  });

  it("a last good answer older than six hours is not used", () => {
    const learned = { from: NOW, load: [0.25, 0.25], solar: [0.1, 0.1], days: 14 };
    const snapshot = {
      provider: "open-meteo",
      samples: [
        { start: NOW, kwh: 2 },
        { start: NOW + SLOT, kwh: 2 },
      ],
      fetchedAt: NOW - 6 * 3_600_000 - 1,
      failure: "open-meteo: http://127.0.0.1:1/v1/forecast did not answer (fetch failed)",
    };
    const stale = withProviderSolar(learned, { snapshot, bias: { ratio: 1, days: 0 } }, NOW);
    expect(stale.solar).toEqual([0.1, 0.1]);
    expect(stale.solarFrom).toBe(
      "learned (open-meteo failed: open-meteo: http://127.0.0.1:1/v1/forecast did not answer (fetch failed))",
    );
    const kept = withProviderSolar(
      learned,
      { snapshot: { ...snapshot, fetchedAt: NOW - 3_600_000 }, bias: { ratio: 0.9, days: 5 } },
      NOW,
    );
    expect(kept.solar).toEqual([1.8, 1.8]);
    expect(kept.solarFrom).toBe(
      "open-meteo x0.90 (bias from 5 days) (last good answer kept; open-meteo: http://127.0.0.1:1/v1/forecast did not answer (fetch failed))",
    );
  });

  it("counts the service's requests in the store: a restart does not spend the day's allowance twice", async () => {
    const path = join(dir, "budget.db");
    served = await serve(() => ({ status: 200, body: fixture("solcast-forecasts.json") }));
    const config = solarForecastSchema.parse({
      provider: "solcast",
      api_key: "k",
      sites: ["ab12"],
      base_url: served.url,
      refresh_minutes: 5,
      daily_requests: 2,
    });
    const first = openStore(path);
    const before = houseForecaster(first, { timeZone: TZ, config });
    await before.refresh(NOW);
    await before.refresh(NOW + 5 * 60_000);
    first.close();
    expect(served.requests).toHaveLength(2);
    store = openStore(path);
    const after = houseForecaster(store, { timeZone: TZ, config });
    await after.refresh(NOW + 10 * 60_000);
    expect(served.requests).toHaveLength(2);
    expect(after.solar(NOW)?.snapshot.failure).toBe(
      "solcast: the 2 requests a day are spent until 00:00 UTC (daily_requests)",
    );
    expect(after.forecast(NOW + 10 * 60_000).solarFrom).toBe(
      "learned (solcast failed: solcast: the 2 requests a day are spent until 00:00 UTC (daily_requests))",
    );
    // The next UTC day (23:00 UTC is 00:00 in London, still the 17th in UTC; 00:05 UTC is the 18th).
    await after.refresh(Date.parse("2022-07-18T00:05:00Z"));
    expect(served.requests).toHaveLength(3);
  });

  it("learns the provider's bias from the store and keeps each day's MAE there", async () => {
    store = openStore(join(dir, "bias.db"));
    served = await serve(() => ({ status: 200, body: fixture("solcast-forecasts.json") }));
    const config = solarForecastSchema.parse({
      provider: "solcast",
      api_key: "k",
      sites: ["ab12"],
      base_url: served.url,
    });
    const feed = new SolarForecastFeed(config, {
      budget: new RequestBudget("solcast", 10),
      onForecast: (provider, samples, fetchedAt) => store?.solarForecasts.record(provider, samples, fetchedAt),
    });
    await feed.refresh(NOW);
    // The inverter measured 80% of each half-hour's forecast power on 18 July (local day, BST).
    const forecastKw = new Map(
      JSON.parse(fixture("solcast-forecasts.json")).forecasts.map(
        (entry: { period_end: string; pv_estimate: number }) => [
          Date.parse(entry.period_end) - SLOT,
          entry.pv_estimate,
        ],
      ),
    );
    const dayStart = Date.parse("2022-07-17T23:00:00Z");
    store.history.write(
      inverterPoints(dayStart, dayStart + DAY, (at) => {
        const kw = (forecastKw.get(Math.floor(at / SLOT) * SLOT) as number | undefined) ?? 0;
        return { solar: Math.round(kw * 800), consumption: 400 };
      }),
    );
    const later = Date.parse("2022-07-19T21:00:00Z");
    const house = houseForecaster(store, { timeZone: TZ, config });
    // The first call of a day saves the last days' forecast against actual.
    await house.refresh(later);
    const [day] = store.solarForecasts.lastDays("solcast", 7);
    expect(day?.day).toBe("2022-07-18");
    expect(day?.slots).toBe(34);
    expect(day?.forecastKwh).toBeCloseTo(23.1066, 2);
    expect(day?.actualKwh).toBeCloseTo(23.1066 * 0.8, 1);
    expect(day?.maeKwh).toBeCloseTo((23.1066 * 0.2) / 34, 2);
    const bias = providerBias(store.history, store.solarForecasts, {
      provider: "solcast",
      now: later,
      timeZone: TZ,
      days: 14,
    });
    expect(bias.ratio).toBeCloseTo(0.8, 2);
    expect(bias.days).toBe(1);
    // The recorded answer is for the 18th: on the evening of the 19th it reaches nothing ahead.
    expect(house.forecast(later).solarFrom).toBe("learned (solcast's answer does not reach now)");
    // Had it reached ahead, the plan's solar would carry the bias.
    const biased = withProviderSolar(
      { from: NOW, load: [0, 0], solar: [0, 0], days: 1 },
      { snapshot: feed.snapshot(), bias },
      NOW,
    );
    expect(biased.solarFrom).toBe("solcast x0.80 (bias from 1 days)");
  });
});
