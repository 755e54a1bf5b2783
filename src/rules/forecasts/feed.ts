import type { HalfHourSample } from "../../optimiser/index.js";
import { MINUTE_MS } from "../../time/index.js";
import { budgetFor, type RequestBudget } from "./budget.js";
import type { SolarForecastConfig } from "./config.js";
import { fetchForecastSolar } from "./forecast-solar.js";
import { readHomeAssistantFile } from "./home-assistant-file.js";
import type { HeardForecasts } from "./home-assistant-mqtt.js";
import { ForecastError } from "./http.js";
import { fetchOpenMeteo } from "./open-meteo.js";
import { fetchSolcast } from "./solcast.js";

/** What the provider last said, and whether the last attempt failed. */
export interface SolarForecastSnapshot {
  readonly provider: string;
  /** The last good answer's half-hours (empty before the first). */
  readonly samples: readonly HalfHourSample[];
  readonly fetchedAt: number | undefined;
  /** Why the last attempt failed; undefined when it succeeded. */
  readonly failure: string | undefined;
  /**
   * How long after fetchedAt the answer is still used; undefined: the house forecast's default.
   * A pushed forecast keeps a day: Home Assistant's sensors change a few times a day, not at night.
   */
  readonly usableForMs?: number;
}

const PUSHED_USABLE_MS = 24 * 60 * MINUTE_MS;

export interface SolarForecastFeedOptions {
  /** Told once per refresh outcome: a success or a failure (never the key). */
  readonly onOutcome?: (outcome: {
    readonly ok: boolean;
    /** request: the provider was asked; store: its good answer could not be kept. */
    readonly stage: "request" | "store";
    readonly message: string;
  }) => void;
  /** Given each good answer: the store keeps it for the forecast-against-actual check. */
  readonly onForecast?: (provider: string, samples: readonly HalfHourSample[], fetchedAt: number) => void;
  /** The service's budget; by default the one shared by the process for that service. */
  readonly budget?: RequestBudget;
  /** What Home Assistant published over MQTT, for the home-assistant-mqtt provider. */
  readonly heard?: HeardForecasts;
}

/** An answer: its half-hours, when it was had, and a newer problem that left it in place. */
interface Answer {
  readonly samples: readonly HalfHourSample[];
  readonly at: number;
  readonly problem?: string | undefined;
}

/**
 * A provider's forecast, refreshed at most every refresh_minutes and kept between refreshes. A
 * failure keeps the last good answer and says why; the house forecast then decides how much of
 * it is still usable.
 */
export class SolarForecastFeed {
  private samples: readonly HalfHourSample[] = [];
  private fetchedAt: number | undefined;
  private lastAttempt: number | undefined;
  private failure: string | undefined;
  private readonly budget: RequestBudget | undefined;

  constructor(
    readonly config: SolarForecastConfig,
    private readonly options: SolarForecastFeedOptions = {},
  ) {
    // Home Assistant publishes over MQTT: nothing is requested, so nothing is budgeted.
    this.budget =
      options.budget ?? ("daily_requests" in config ? budgetFor(config.provider, config.daily_requests) : undefined);
  }

  get provider(): string {
    return this.config.provider;
  }

  /** Asks the provider when the refresh interval has passed since the last attempt; never throws. */
  async refresh(now: number, signal?: AbortSignal): Promise<void> {
    if (this.lastAttempt !== undefined && now - this.lastAttempt < this.config.refresh_minutes * MINUTE_MS) return;
    this.lastAttempt = now;
    try {
      const answer = await this.fetch(now, signal);
      if (answer.samples.length === 0) throw new Error(`${this.provider}: the answer holds no half-hours`);
      if (answer.at === this.fetchedAt) {
        // Nothing new came (a pushed forecast between messages): only a newer problem to tell.
        this.failure = answer.problem;
        return;
      }
      this.samples = answer.samples;
      this.fetchedAt = answer.at;
      this.failure = answer.problem;
    } catch (error) {
      this.failure = error instanceof Error ? error.message : String(error);
      this.options.onOutcome?.({ ok: false, stage: "request", message: this.failure });
      return;
    }
    this.options.onOutcome?.({
      ok: true,
      stage: "request",
      message: `${this.provider}: ${this.samples.length} half-hours forecast`,
    });
    try {
      this.options.onForecast?.(this.provider, this.samples, this.fetchedAt ?? now);
    } catch (error) {
      // The answer still serves the plan; only the check against actual misses it.
      this.options.onOutcome?.({
        ok: false,
        stage: "store",
        message: `${this.provider}: the answer was not kept for the check against actual (${error instanceof Error ? error.message : String(error)})`,
      });
    }
  }

  snapshot(): SolarForecastSnapshot {
    return {
      provider: this.provider,
      samples: this.samples,
      fetchedAt: this.fetchedAt,
      failure: this.failure,
      ...(this.config.provider === "home-assistant-mqtt" ? { usableForMs: PUSHED_USABLE_MS } : {}),
    };
  }

  private async fetch(now: number, signal: AbortSignal | undefined): Promise<Answer> {
    const config = this.config;
    if (config.provider === "home-assistant-mqtt") {
      if (!this.options.heard)
        throw new ForecastError(
          "home-assistant-mqtt: only the daemon listens to MQTT; here the store's last forecast serves",
        );
      return this.options.heard.latest(now);
    }
    const common = {
      beforeRequest: () => this.budget?.take(now),
      ...(config.base_url ? { baseUrl: config.base_url } : {}),
      ...(signal ? { signal } : {}),
    };
    const samples = await (() => {
      switch (config.provider) {
        case "forecast.solar":
          return fetchForecastSolar(config, common);
        case "open-meteo":
          return fetchOpenMeteo(config, common);
        case "solcast":
          return fetchSolcast(config, common);
        case "home-assistant-file":
          return readHomeAssistantFile(config.file, common);
      }
    })();
    return { samples, at: now };
  }
}
