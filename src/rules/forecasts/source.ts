import type { HalfHourSample } from "../../optimiser/index.js";
import { MINUTE_MS } from "../../time/index.js";
import { budgetFor, type RequestBudget } from "./budget.js";
import type { SolarForecastConfig } from "./config.js";
import { fetchForecastSolar } from "./forecast-solar.js";
import { readHomeAssistantFile } from "./home-assistant-file.js";
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
}

export interface SolarForecastSourceOptions {
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
}

/**
 * A provider's forecast, refreshed at most every refresh_minutes and kept between refreshes. A
 * failure keeps the last good answer and says why; the house forecast then decides how much of
 * it is still usable.
 */
export class SolarForecastSource {
  private samples: readonly HalfHourSample[] = [];
  private fetchedAt: number | undefined;
  private lastAttempt: number | undefined;
  private failure: string | undefined;
  private readonly budget: RequestBudget;

  constructor(
    readonly config: SolarForecastConfig,
    private readonly options: SolarForecastSourceOptions = {},
  ) {
    this.budget = options.budget ?? budgetFor(config.provider, config.daily_requests);
  }

  get provider(): string {
    return this.config.provider;
  }

  /** Asks the provider when the refresh interval has passed since the last attempt; never throws. */
  async refresh(now: number, signal?: AbortSignal): Promise<void> {
    if (this.lastAttempt !== undefined && now - this.lastAttempt < this.config.refresh_minutes * MINUTE_MS) return;
    this.lastAttempt = now;
    try {
      const samples = await this.fetch(now, signal);
      if (samples.length === 0) throw new Error(`${this.provider}: the answer holds no half-hours`);
      this.samples = samples;
      this.fetchedAt = now;
      this.failure = undefined;
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
      this.options.onForecast?.(this.provider, this.samples, now);
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
    return { provider: this.provider, samples: this.samples, fetchedAt: this.fetchedAt, failure: this.failure };
  }

  private fetch(now: number, signal: AbortSignal | undefined): Promise<HalfHourSample[]> {
    const config = this.config;
    const common = {
      beforeRequest: () => this.budget.take(now),
      ...(config.base_url ? { baseUrl: config.base_url } : {}),
      ...(signal ? { signal } : {}),
    };
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
  }
}
