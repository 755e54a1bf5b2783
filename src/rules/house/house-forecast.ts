import { DAY_MS, forecastLoad, forecastSolar, type HalfHourSample } from "../../optimiser/index.js";
import type { History, SolarForecasts } from "../../store/index.js";
import { dayOf, HOUR_MS, SLOT_MS } from "../../time/index.js";
import {
  type Bias,
  ForecastError,
  type HeardForecasts,
  providerBias,
  RequestBudget,
  recordForecastDays,
  type SolarForecastConfig,
  SolarForecastFeed,
  type SolarForecastSnapshot,
} from "../forecasts/index.js";
import type { HouseForecast } from "../planners/optimise-windows.js";
import { type HouseHistory, localDays, readHouseHistory } from "./house-history.js";

/** How far back the forecasts learn from. */
const LEARN_DAYS = 28;
/** A provider's last good answer is used this long after it was fetched, failures or not. */
const PROVIDER_STALE_MS = 6 * HOUR_MS;

/** A solar provider's forecast and the correction of its bias learned from the store. */
export interface ProviderSolar {
  readonly snapshot: SolarForecastSnapshot;
  readonly bias: Bias;
}

/** The house forecast, saying where its solar came from ("learned", "open-meteo x0.93 ...", "learned (solcast failed: ...)"). */
export type AttributedHouseForecast = HouseForecast & { readonly solarFrom: string };

/**
 * The house's consumption and solar for the next `slots` half-hours, learned from the store's
 * history of the last four weeks (the method is in optimiser/forecast.ts), with how many days
 * it learned from: 0 when the store has nothing yet.
 */
export function houseForecast(
  history: Pick<History, "query">,
  options: { readonly now: number; readonly timeZone: string; readonly slots?: number; readonly solar?: ProviderSolar },
): AttributedHouseForecast {
  const from = Math.floor(options.now / SLOT_MS) * SLOT_MS;
  const past = readHouseHistory(history, { from: from - LEARN_DAYS * DAY_MS, to: from, timeZone: options.timeZone });
  return withProviderSolar(forecastAt(past, from, options.timeZone, options.slots ?? 96), options.solar, options.now);
}

/**
 * The provider's half-hours, scaled by its learned bias, in place of the learned solar wherever
 * its answer reaches (half-hours inside it that it left out are night: 0); beyond it, and when
 * there is no usable answer, the learned profile, saying why.
 */
export function withProviderSolar(
  learned: HouseForecast,
  solar: ProviderSolar | undefined,
  now: number,
): AttributedHouseForecast {
  if (!solar) return { ...learned, solarFrom: "learned" };
  const { snapshot, bias } = solar;
  const fresh =
    snapshot.fetchedAt !== undefined && now - snapshot.fetchedAt <= (snapshot.usableForMs ?? PROVIDER_STALE_MS);
  const first = snapshot.samples[0];
  const last = snapshot.samples[snapshot.samples.length - 1];
  if (!fresh || !first || !last || last.start < learned.from) {
    const why = snapshot.failure
      ? `${snapshot.provider} failed: ${snapshot.failure}`
      : snapshot.fetchedAt === undefined
        ? `${snapshot.provider} has not answered yet`
        : fresh
          ? `${snapshot.provider}'s answer does not reach now`
          : `${snapshot.provider}'s last answer is too old`;
    return { ...learned, solarFrom: `learned (${why})` };
  }
  const byStart = new Map(snapshot.samples.map((sample) => [sample.start, sample.kwh]));
  const solarSlots = learned.solar.map((learnedKwh, index) => {
    const at = learned.from + index * SLOT_MS;
    if (at < first.start || at > last.start) return learnedKwh;
    return (byStart.get(at) ?? 0) * bias.ratio;
  });
  const corrected = bias.ratio === 1 ? "" : ` x${bias.ratio.toFixed(2)} (bias from ${bias.days} days)`;
  const kept = snapshot.failure ? ` (last good answer kept; ${snapshot.failure})` : "";
  return { ...learned, solar: solarSlots, solarFrom: `${snapshot.provider}${corrected}${kept}` };
}

/** Where the forecaster says what the provider did (the daemon's pino logger fits). */
export interface ForecastLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface HouseForecaster {
  /** The next 48 hours, with the provider's solar where it is usable; asks the provider in the background when due. */
  readonly forecast: (now: number) => AttributedHouseForecast;
  /** Asks the provider when due, and once a day saves the last days' forecast against actual; never rejects. */
  readonly refresh: (now: number) => Promise<void>;
  /** The provider's answer and learned bias now; undefined without a provider. */
  readonly solar: (now: number) => ProviderSolar | undefined;
}

/**
 * The house forecast for the rules engine with the configured solar provider: each call asks the
 * provider in the background when its refresh interval has passed (the answer serves the next
 * plans), keeps its answers in the store, and once a day saves the last days' forecast against
 * actual. Without a provider, the learned forecast alone.
 */
export function houseForecaster(
  store: { readonly history: Pick<History, "query">; readonly solarForecasts: SolarForecasts },
  options: {
    readonly timeZone: string;
    readonly config?: SolarForecastConfig | undefined;
    readonly logger?: ForecastLogger;
    /**
     * For the home-assistant-mqtt provider: what the daemon heard over MQTT. Without it (`rules
     * plan`), the forecast the daemon last kept in the store serves.
     */
    readonly heard?: HeardForecasts;
  },
): HouseForecaster {
  const { timeZone, config, logger } = options;
  const heard =
    options.heard ??
    (config?.provider === "home-assistant-mqtt" ? storedForecast(store.solarForecasts, config.provider) : undefined);
  const feed = config
    ? new SolarForecastFeed(config, {
        // Counted in the store: the daemon, a restart and `rules plan` share the service's daily allowance.
        ...("daily_requests" in config
          ? { budget: new RequestBudget(config.provider, config.daily_requests, store.solarForecasts) }
          : {}),
        ...(heard ? { heard } : {}),
        onForecast: (provider, samples, fetchedAt) => store.solarForecasts.record(provider, samples, fetchedAt),
        onOutcome: (outcome) =>
          outcome.ok
            ? logger?.info({ provider: config.provider }, outcome.message)
            : logger?.warn(
                { provider: config.provider },
                outcome.stage === "store"
                  ? outcome.message
                  : `solar forecast failed (the last good answer serves up to 6 h, then the learned profile): ${outcome.message}`,
              ),
      })
    : undefined;
  let biasAt: { slot: number; bias: Bias } | undefined;
  let recordedDay: string | undefined;
  const refresh = async (now: number): Promise<void> => {
    if (!feed || !config) return;
    await feed.refresh(now);
    const today = dayOf(now, timeZone);
    if (today !== recordedDay) {
      recordedDay = today;
      try {
        recordForecastDays(store.history, store.solarForecasts, { provider: config.provider, now, timeZone, days: 7 });
      } catch (error) {
        // The plan does not depend on it: say so and carry on.
        logger?.warn({ provider: config.provider }, `solar forecast against actual not saved: ${String(error)}`);
      }
    }
  };
  const solar = (now: number): ProviderSolar | undefined => {
    if (!feed || !config) return undefined;
    const slot = Math.floor(now / SLOT_MS);
    if (biasAt?.slot !== slot)
      biasAt = {
        slot,
        bias: providerBias(store.history, store.solarForecasts, {
          provider: config.provider,
          now,
          timeZone,
          days: config.bias_days,
        }),
      };
    return { snapshot: feed.snapshot(), bias: biasAt.bias };
  };
  const forecast = (now: number): AttributedHouseForecast => {
    if (config)
      refresh(now).catch((error: unknown) =>
        logger?.warn({ provider: config.provider }, `solar forecast: ${String(error)}`),
      );
    const provided = solar(now);
    return houseForecast(store.history, { now, timeZone, ...(provided ? { solar: provided } : {}) });
  };
  return { forecast, refresh, solar };
}

/** How far ahead the store's kept forecast is read for a pushed provider. */
const STORED_AHEAD_MS = 3 * DAY_MS;

/**
 * The forecast the daemon kept in the store for a provider it is pushed (Home Assistant over
 * MQTT), from the half-hour under way: what `rules plan` uses, as it does not listen itself.
 */
function storedForecast(forecasts: SolarForecasts, provider: string): HeardForecasts {
  let at: number | undefined;
  return {
    latest: (now) => {
      at ??= now;
      const from = Math.floor(now / SLOT_MS) * SLOT_MS;
      const samples = forecasts.between(provider, from, from + STORED_AHEAD_MS);
      if (samples.length === 0)
        throw new ForecastError(`${provider}: the store holds no forecast ahead; the daemon keeps what it hears`);
      return { samples, at, problem: undefined };
    },
  };
}

export interface ForecastCheck {
  /** Half-hours compared: those of the last day the store has readings for. */
  readonly slots: number;
  readonly load: { readonly forecastKwh: number; readonly actualKwh: number; readonly meanErrorKwh: number };
  readonly solar: { readonly forecastKwh: number; readonly actualKwh: number; readonly meanErrorKwh: number };
}

export interface HouseOutlook {
  readonly forecast: HouseForecast;
  /** How the forecast did over the last day; undefined when that day has no readings or nothing came before it. */
  readonly check: ForecastCheck | undefined;
}

/**
 * The forecast from now, and how it did over the last day (what it would have said a day ago,
 * from what the store held then, against what the store holds for that day), from one read of
 * the store: the last four weeks and the day before them.
 */
export function houseOutlook(
  history: Pick<History, "query">,
  options: { readonly now: number; readonly timeZone: string; readonly slots?: number },
): HouseOutlook {
  const { timeZone } = options;
  const from = Math.floor(options.now / SLOT_MS) * SLOT_MS;
  const past = readHouseHistory(history, { from: from - (LEARN_DAYS + 1) * DAY_MS, to: from, timeZone });
  return {
    forecast: forecastAt(past, from, timeZone, options.slots ?? 96),
    check: checkAt(past, from - DAY_MS, from, timeZone),
  };
}

/** The forecast from `from`, learned from the samples of the four weeks before it (the forecasts ignore the rest). */
function forecastAt(past: HouseHistory, from: number, timeZone: string, slots: number): HouseForecast {
  const since = from - LEARN_DAYS * DAY_MS;
  const learned = [...past.load, ...past.solar].filter((sample) => sample.start >= since && sample.start < from);
  const ahead = { from, timeZone, slots };
  return {
    from,
    load: forecastLoad(past.load, ahead),
    solar: forecastSolar(past.solar, ahead),
    days: localDays(
      learned.map((sample) => sample.start),
      timeZone,
    ),
  };
}

/** The forecast made at `from` for the day to `to`, against what the samples say that day was. */
function checkAt(past: HouseHistory, from: number, to: number, timeZone: string): ForecastCheck | undefined {
  const then = forecastAt(past, from, timeZone, 48);
  if (then.days === 0) return undefined;
  const inDay = (samples: readonly HalfHourSample[]) =>
    samples.filter((sample) => sample.start >= from && sample.start < to);
  const actual = { load: inDay(past.load), solar: inDay(past.solar) };
  const compare = (series: "load" | "solar") => {
    let forecastKwh = 0;
    let actualKwh = 0;
    let error = 0;
    for (const sample of actual[series]) {
      const predicted = then[series][Math.round((sample.start - from) / SLOT_MS)] ?? 0;
      forecastKwh += predicted;
      actualKwh += sample.kwh;
      error += Math.abs(predicted - sample.kwh);
    }
    const count = actual[series].length;
    return { forecastKwh, actualKwh, meanErrorKwh: count > 0 ? error / count : 0 };
  };
  const slots = Math.max(actual.load.length, actual.solar.length);
  if (slots === 0) return undefined;
  return { slots, load: compare("load"), solar: compare("solar") };
}
