import type { HalfHourSample } from "../../optimiser/index.js";
import { sensorHalfHours } from "./home-assistant-sensor.js";
import { ForecastError } from "./http.js";

/** What the listener holds: the topics' last good forecasts together, and since when. */
export interface HeardForecast {
  readonly samples: readonly HalfHourSample[];
  /** Epoch ms the newest good payload came in. */
  readonly at: number;
  /** The last payload that could not be used, when it came after the good ones: they are kept. */
  readonly problem: string | undefined;
}

/** Where a pushed forecast is read: the listener, or the store's kept copy. */
export interface HeardForecasts {
  /** The forecast now; throws a ForecastError when there is none. */
  latest(now: number): HeardForecast;
}

/** Told of each payload that could not be used (the daemon logs it as a warning). */
export type BadPayloadHandler = (topic: string, message: string) => void;

interface Heard {
  readonly samples: HalfHourSample[];
  readonly at: number;
}

/**
 * A Home Assistant sensor's forecast as it comes over MQTT: each topic's last good payload
 * (a state object, its attributes, or one attribute's value as mqtt_statestream publishes it).
 * Topics usually hold different days (Solcast's today and tomorrow sensors); where two cover
 * the same half-hour, the newer payload's value counts. A payload that cannot be used is told
 * to `onBad` and leaves the topic's last good forecast in place.
 */
export class HomeAssistantForecastListener implements HeardForecasts {
  private readonly heard = new Map<string, Heard>();
  private problem: { readonly at: number; readonly message: string } | undefined;

  constructor(
    readonly topics: readonly string[],
    private readonly onBad: BadPayloadHandler = () => undefined,
  ) {}

  handles(topic: string): boolean {
    return this.topics.includes(topic);
  }

  /** Takes one message of a topic this listener handles; never throws. */
  receive(topic: string, payload: string, at: number): void {
    if (!this.handles(topic)) return;
    // An empty retained message clears the topic: HA publishes none, but a user may.
    if (payload.length === 0) return;
    try {
      let body: unknown;
      try {
        body = JSON.parse(payload);
      } catch {
        throw new ForecastError(`not JSON (${JSON.stringify(payload.slice(0, 40))}...)`);
      }
      const samples = sensorHalfHours(body, topic.split("/").at(-1));
      if (samples.length === 0) throw new ForecastError("the forecast holds no half-hours");
      this.heard.set(topic, { samples, at });
    } catch (error) {
      const message = `home-assistant-mqtt: ${topic}: ${error instanceof Error ? error.message : String(error)}`;
      this.problem = { at, message };
      this.onBad(topic, message);
    }
  }

  /** The topics' last good forecasts together; throws when none has come yet. */
  latest(_now?: number): HeardForecast {
    if (this.heard.size === 0)
      throw new ForecastError(
        this.problem
          ? `${this.problem.message} (and no good forecast before it)`
          : `home-assistant-mqtt: nothing received yet on ${this.topics.join(", ")}`,
      );
    const byStart = new Map<number, { kwh: number; at: number }>();
    let newest = 0;
    for (const { samples, at } of this.heard.values()) {
      newest = Math.max(newest, at);
      for (const sample of samples) {
        const known = byStart.get(sample.start);
        if (!known || known.at <= at) byStart.set(sample.start, { kwh: sample.kwh, at });
      }
    }
    return {
      samples: [...byStart.entries()].sort(([a], [b]) => a - b).map(([start, { kwh }]) => ({ start, kwh })),
      at: newest,
      problem: this.problem && this.problem.at >= newest ? this.problem.message : undefined,
    };
  }
}
