import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import mqtt from "mqtt";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { EventBus } from "../../../src/bus/event-bus.js";
import { mqttFeature } from "../../../src/mqtt/index.js";
import {
  forecastSolarHalfHours,
  HomeAssistantForecastListener,
  sensorHalfHours,
  solarForecastSchema,
} from "../../../src/rules/forecasts/index.js";
import { houseForecaster, withProviderSolar } from "../../../src/rules/house/house-forecast.js";
import { openStore, type Store } from "../../../src/store/index.js";
import { systemClock } from "../../../src/time/index.js";
import { startTestBroker, type TestBroker } from "../../helpers/broker.js";
import { fixture } from "./helpers.js";

/*
 * Home Assistant publishes a forecast sensor over MQTT (mqtt_statestream's attribute topics, or an
 * automation's JSON of the state); the daemon's own MQTT connection hears it on the bus. The
 * bodies are recorded ones (test/fixtures/solar-forecasts/README.md).
 */

const TODAY = "homeassistant/sensor/solcast_pv_forecast_forecast_today/detailedForecast";
const WATTS = "homeassistant/sensor/forecast_solar/watts";
const STATE = "home/solar/forecast_solar_state";
const TZ = "Europe/Berlin";
// 05:00 CEST on Sunday 26 March 2023, the morning the clocks went forward: a day of 46 half-hours.
const NOW = Date.parse("2023-03-26T03:00:00Z");

const detailedForecast: { period_start: string; pv_estimate: number }[] = JSON.parse(
  fixture("ha-solcast-detailed-forecast.json"),
);

let broker: TestBroker;
let publisher: mqtt.MqttClient;
let connection: ReturnType<typeof mqttFeature>;
let bus: EventBus;
const dir = mkdtempSync(join(tmpdir(), "e2m-ha-mqtt-forecast-"));
const logger = pino({ level: "silent" });

beforeAll(async () => {
  broker = await startTestBroker();
  bus = new EventBus(() => undefined);
  connection = mqttFeature({
    bus,
    url: broker.url,
    stateTopic: "e2m-test/bridge/state",
    logger,
    clock: systemClock,
    stopMs: 500,
  });
  await connection.start();
  publisher = await mqtt.connectAsync(broker.url, { clientId: `ha-${process.pid}-${Date.now()}` });
});

afterAll(async () => {
  await publisher?.endAsync();
  await connection?.stop();
  await broker?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A listener on the daemon's connection, as the rules feature wires it: the bus's messages, at a pinned time. */
async function listen(topics: readonly string[], at: () => number) {
  const bad: string[] = [];
  const listener = new HomeAssistantForecastListener(topics, (_topic, message) => bad.push(message));
  const owner = `test-${Math.random().toString(36).slice(2)}`;
  bus.on("mqttMessage", owner, ({ topic, payload }) => listener.receive(topic, payload, at()));
  for (const topic of topics) await connection.subscribe(topic);
  return { listener, bad, stop: () => bus.removeAll(owner) };
}

function config(topics: readonly string[]) {
  return solarForecastSchema.parse({ provider: "home-assistant-mqtt", topics });
}

let stores = 0;
function freshStore(): Store {
  stores += 1;
  return openStore(join(dir, `store-${stores}.db`));
}

describe("a Home Assistant forecast sensor over MQTT", () => {
  it("reads the Solcast integration's detailedForecast from its statestream topic, across the DST change", async () => {
    await publisher.publishAsync(TODAY, JSON.stringify(detailedForecast), { retain: true, qos: 1 });
    let at = NOW;
    const { listener, bad, stop } = await listen([TODAY], () => at);
    await vi.waitFor(() => expect(() => listener.latest(NOW)).not.toThrow(), { timeout: 5000 });
    const store = freshStore();
    try {
      const house = houseForecaster(store, { timeZone: TZ, config: config([TODAY]), heard: listener });
      await house.refresh(NOW);
      const { snapshot } = house.solar(NOW) ?? { snapshot: undefined };
      const samples = snapshot?.samples ?? [];
      // 23:00Z to 21:30Z: the local day 00:00 CET to 23:30 CEST is 23 hours.
      expect(samples).toHaveLength(46);
      expect(samples[0]?.start).toBe(Date.parse("2023-03-25T23:00:00Z"));
      expect(samples.at(-1)?.start).toBe(Date.parse("2023-03-26T21:30:00Z"));
      // 07:30 CEST, the first light: 0.01115 kW for half an hour.
      expect(samples.find((sample) => sample.start === Date.parse("2023-03-26T05:30:00Z"))?.kwh).toBeCloseTo(
        0.005575,
        9,
      );
      const total = samples.reduce((sum, sample) => sum + sample.kwh, 0);
      expect(total).toBeCloseTo(
        detailedForecast.reduce((sum, entry) => sum + entry.pv_estimate / 2, 0),
        9,
      );
      expect(snapshot?.failure).toBeUndefined();
      // Kept in the store from the half-hour it was heard in, for the check against actual.
      expect(store.solarForecasts.between("home-assistant-mqtt", NOW, NOW + 86_400_000)).toHaveLength(38);

      // A sensor gone unavailable: logged clearly, the last good forecast kept, and said so.
      at = NOW + 10 * 60_000;
      await publisher.publishAsync(TODAY, '"unavailable"', { retain: true, qos: 1 });
      await vi.waitFor(() => expect(bad).toHaveLength(1), { timeout: 5000 });
      expect(bad[0]).toMatch(
        new RegExp(`^home-assistant-mqtt: ${TODAY}: not a forecast sensor's state or attributes .*: \\(the body\\): `),
      );
      await house.refresh(at);
      const kept = house.forecast(at);
      expect(house.solar(at)?.snapshot.samples).toEqual(samples);
      expect(kept.solarFrom).toContain("home-assistant-mqtt (last good answer kept; home-assistant-mqtt: ");

      // `rules plan` does not listen: it reads what the daemon kept in the store.
      const planned = houseForecaster(store, { timeZone: TZ, config: config([TODAY]) });
      await planned.refresh(NOW);
      expect(planned.solar(NOW)?.snapshot.samples).toEqual(samples.filter((sample) => sample.start >= NOW));
    } finally {
      stop();
      store.close();
      await publisher.publishAsync(TODAY, "", { retain: true, qos: 1 });
    }
  });

  it("reads Forecast.Solar's watts, which give the same energy as its wh_period", async () => {
    const recorded = JSON.parse(fixture("forecast-solar-estimate.json"));
    await publisher.publishAsync(WATTS, fixture("ha-forecast-solar-watts.json"), { retain: true, qos: 1 });
    // What an automation publishes: the state with the recorded wh_period as its attribute.
    const state = { state: "6.66", attributes: { wh_period: recorded.result.watt_hours_period } };
    await publisher.publishAsync(STATE, JSON.stringify(state), { retain: true, qos: 1 });
    let received = 0;
    const { listener, stop } = await listen([WATTS, STATE], () => {
      received += 1;
      return NOW;
    });
    try {
      await vi.waitFor(() => expect(listener.latest(NOW).samples.length).toBeGreaterThan(0), { timeout: 5000 });
      const fromWh = forecastSolarHalfHours(recorded);
      const fromWatts = sensorHalfHours(JSON.parse(fixture("ha-forecast-solar-watts.json")), "watts");
      expect(fromWatts.map((sample) => sample.start)).toEqual(fromWh.map((sample) => sample.start));
      // Forecast.Solar rounds each period's Wh: the mean of the two powers is within half a Wh of it.
      for (const [index, sample] of fromWatts.entries())
        expect(Math.abs(sample.kwh - (fromWh[index]?.kwh ?? 0))).toBeLessThan(0.0005);
      // Both topics carry the same days: the listener's half-hours are the later one's, whichever came last.
      await vi.waitFor(() => expect(received).toBe(2), { timeout: 5000 });
      expect(listener.latest(NOW).samples).toHaveLength(fromWh.length);
      const days: Record<string, number> = recorded.result.watt_hours_day;
      const dayKwh = Object.values(days).reduce((sum, wh) => sum + wh / 1000, 0);
      // Within Forecast.Solar's rounding of each period to a Wh (0.0078 kWh over these two days).
      expect(Math.abs(listener.latest(NOW).samples.reduce((sum, sample) => sum + sample.kwh, 0) - dayKwh)).toBeLessThan(
        0.01,
      );
    } finally {
      stop();
      await publisher.publishAsync(WATTS, "", { retain: true, qos: 1 });
      await publisher.publishAsync(STATE, "", { retain: true, qos: 1 });
    }
  });

  it("with nothing heard, the plan runs on the learned profile and says why", async () => {
    const silent = "homeassistant/sensor/solcast_pv_forecast_forecast_tomorrow/detailedForecast";
    const { listener, stop } = await listen([silent], () => NOW);
    const store = freshStore();
    try {
      const house = houseForecaster(store, { timeZone: TZ, config: config([silent]), heard: listener });
      await house.refresh(NOW);
      expect(house.forecast(NOW).solarFrom).toBe(
        `learned (home-assistant-mqtt failed: home-assistant-mqtt: nothing received yet on ${silent})`,
      );
    } finally {
      stop();
      store.close();
    }
  });
});

describe("how long a pushed forecast serves", () => {
  it("a day after it was heard, where an answer asked for serves six hours", () => {
    const samples = sensorHalfHours(detailedForecast);
    const heardAt = Date.parse("2023-03-25T22:00:00Z");
    const now = heardAt + 10 * 3_600_000;
    const learned = { from: now, load: [0, 0], solar: [0.1, 0.1], days: 3 };
    const bias = { ratio: 1, days: 0 };
    const snapshot = { provider: "home-assistant-mqtt", samples, fetchedAt: heardAt, failure: undefined };
    const pushed = withProviderSolar(learned, { snapshot: { ...snapshot, usableForMs: 86_400_000 }, bias }, now);
    expect(pushed.solarFrom).toBe("home-assistant-mqtt");
    expect(pushed.solar).toEqual([
      samples.find((one) => one.start === now)?.kwh,
      samples.find((one) => one.start === now + 1_800_000)?.kwh,
    ]);
    expect(withProviderSolar(learned, { snapshot, bias }, now).solarFrom).toBe(
      "learned (home-assistant-mqtt's last answer is too old)",
    );
  });
});

describe("the shapes a forecast sensor carries", () => {
  it("takes detailedHourly's step from its times (an hour) and the state object's attributes", () => {
    // Derived from the recorded half-hours, labelled so: each hour's mean kW, as detailedHourly gives it.
    const hourly = [];
    for (let i = 0; i + 1 < detailedForecast.length; i += 2) {
      const [a, b] = [detailedForecast[i], detailedForecast[i + 1]];
      hourly.push({ period_start: a?.period_start, pv_estimate: ((a?.pv_estimate ?? 0) + (b?.pv_estimate ?? 0)) / 2 });
    }
    const samples = sensorHalfHours({ state: "4.4", attributes: { detailedHourly: hourly } });
    expect(samples).toHaveLength(46);
    const pairs = sensorHalfHours(detailedForecast);
    for (let i = 0; i < samples.length; i += 2) {
      const pairKwh = (pairs[i]?.kwh ?? 0) + (pairs[i + 1]?.kwh ?? 0);
      expect((samples[i]?.kwh ?? 0) + (samples[i + 1]?.kwh ?? 0)).toBeCloseTo(pairKwh, 9);
    }
  });

  it("says what it expected of a payload it cannot use", () => {
    expect(() => sensorHalfHours({ detailedForecast: [{ period_start: "today", pv_estimate: 1 }] })).toThrow(
      "not a forecast sensor's state or attributes (Solcast's detailedForecast or detailedHourly, Forecast.Solar's wh_period or watts): detailedForecast.0.period_start: an ISO 8601 time with its offset",
    );
    expect(() => sensorHalfHours({ "2024-04-26T07:00:00+02:00": 270 })).toThrow(/none of detailedForecast/);
    expect(() => sensorHalfHours([{ period_start: "2024-04-26T07:00:00+02:00" }])).toThrow(
      "a list, but not of { period_start, pv_estimate }: 0.pv_estimate: ",
    );
  });

  it("the topics are checked in the configuration", () => {
    const problems = solarForecastSchema
      .safeParse({ provider: "home-assistant-mqtt", topics: ["homeassistant/sensor/+/detailedForecast"] })
      .error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    expect(problems).toEqual([
      "topics.0: a topic without wildcards, e.g. homeassistant/sensor/solcast_pv_forecast_forecast_today/detailedForecast",
    ]);
    expect(solarForecastSchema.parse({ provider: "home-assistant-mqtt", topics: ["a/b"] })).toEqual({
      provider: "home-assistant-mqtt",
      topics: ["a/b"],
      refresh_minutes: 5,
      bias_days: 14,
    });
  });
});
