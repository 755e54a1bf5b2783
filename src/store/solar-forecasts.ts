import type { Database, Statement } from "better-sqlite3";
import { z } from "zod";
import { guard, StoreError } from "./errors.js";

/** A provider's forecast for one half-hour: start epoch ms, kWh. */
export interface SolarForecastSlot {
  readonly start: number;
  readonly kwh: number;
}

/** One local day's forecast against actual. */
export interface SolarForecastDay {
  readonly provider: string;
  /** YYYY-MM-DD in the house's zone. */
  readonly day: string;
  /** Half-hours with both a forecast and a reading. */
  readonly slots: number;
  readonly forecastKwh: number;
  readonly actualKwh: number;
  /** Mean absolute error per half-hour, kWh. */
  readonly maeKwh: number;
}

/** The solar forecasts as they stood before each half-hour began, and the days' errors. */
export interface SolarForecasts {
  /** Keeps the forecast for the half-hours starting at or after `fetchedAt`; those already begun keep what they had. */
  record(provider: string, slots: readonly SolarForecastSlot[], fetchedAt: number): void;
  /** The provider's recorded forecast for the half-hours starting in [from, to), by start. */
  between(provider: string, from: number, to: number): SolarForecastSlot[];
  saveDay(day: SolarForecastDay): void;
  /** The provider's last `count` days, newest first. */
  lastDays(provider: string, count: number): SolarForecastDay[];
  /** Requests sent to the service on the UTC day (YYYY-MM-DD). */
  requestsOn(service: string, day: string): number;
  /** Counts one more request on the UTC day; the new total. */
  addRequest(service: string, day: string): number;
}

const countRow = z.object({ requests: z.number().int().nonnegative() });
const slotRow = z.object({ start: z.number().int(), kwh: z.number().nonnegative() });
const dayRow = z.object({
  provider: z.string(),
  day: z.string(),
  slots: z.number().int().positive(),
  forecast_kwh: z.number(),
  actual_kwh: z.number(),
  mae_kwh: z.number().nonnegative(),
});

export class SqliteSolarForecasts implements SolarForecasts {
  private readonly upsert: Statement;
  private readonly range: Statement;
  private readonly putDay: Statement;
  private readonly days: Statement;
  private readonly requests: Statement;
  private readonly request: Statement;

  constructor(
    private readonly db: Database,
    private readonly path: string,
  ) {
    this.upsert = db.prepare(
      `INSERT INTO solar_forecast (provider, start, kwh, fetched_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (provider, start) DO UPDATE SET kwh = excluded.kwh, fetched_at = excluded.fetched_at`,
    );
    this.range = db.prepare(
      "SELECT start, kwh FROM solar_forecast WHERE provider = ? AND start >= ? AND start < ? ORDER BY start",
    );
    this.putDay = db.prepare(
      `INSERT INTO solar_forecast_day (provider, day, slots, forecast_kwh, actual_kwh, mae_kwh) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (provider, day) DO UPDATE SET slots = excluded.slots, forecast_kwh = excluded.forecast_kwh,
         actual_kwh = excluded.actual_kwh, mae_kwh = excluded.mae_kwh`,
    );
    this.days = db.prepare(
      "SELECT provider, day, slots, forecast_kwh, actual_kwh, mae_kwh FROM solar_forecast_day WHERE provider = ? ORDER BY day DESC LIMIT ?",
    );
    this.requests = db.prepare("SELECT requests FROM forecast_request WHERE service = ? AND day = ?");
    this.request = db.prepare(
      `INSERT INTO forecast_request (service, day, requests) VALUES (?, ?, 1)
       ON CONFLICT (service, day) DO UPDATE SET requests = requests + 1
       RETURNING requests`,
    );
  }

  requestsOn(service: string, day: string): number {
    const found = guard(this.path, () => this.requests.get(service, day));
    return found === undefined ? 0 : this.parse(countRow, found, "forecast_request").requests;
  }

  addRequest(service: string, day: string): number {
    return this.parse(
      countRow,
      guard(this.path, () => this.request.get(service, day)),
      "forecast_request",
    ).requests;
  }

  record(provider: string, slots: readonly SolarForecastSlot[], fetchedAt: number): void {
    // Only half-hours not yet begun: one that has started keeps what was forecast before it.
    const write = this.db.transaction(() => {
      for (const slot of slots) if (slot.start >= fetchedAt) this.upsert.run(provider, slot.start, slot.kwh, fetchedAt);
    });
    guard(this.path, () => write());
  }

  between(provider: string, from: number, to: number): SolarForecastSlot[] {
    return guard(this.path, () => this.range.all(provider, from, to)).map((raw) =>
      this.parse(slotRow, raw, "solar_forecast"),
    );
  }

  saveDay(day: SolarForecastDay): void {
    guard(this.path, () =>
      this.putDay.run(day.provider, day.day, day.slots, day.forecastKwh, day.actualKwh, day.maeKwh),
    );
  }

  lastDays(provider: string, count: number): SolarForecastDay[] {
    return guard(this.path, () => this.days.all(provider, count)).map((raw) => {
      const row = this.parse(dayRow, raw, "solar_forecast_day");
      return {
        provider: row.provider,
        day: row.day,
        slots: row.slots,
        forecastKwh: row.forecast_kwh,
        actualKwh: row.actual_kwh,
        maeKwh: row.mae_kwh,
      };
    });
  }

  private parse<T>(schema: z.ZodType<T>, raw: unknown, table: string): T {
    const parsed = schema.safeParse(raw);
    if (!parsed.success)
      throw new StoreError(
        "corrupt",
        this.path,
        `a ${table} row in ${this.path} does not fit the schema: restore a backup, or move the file aside`,
      );
    return parsed.data;
  }
}

/** The same in memory, for a daemon whose store could not be opened. */
export class MemorySolarForecasts implements SolarForecasts {
  private readonly slots = new Map<string, Map<number, number>>();
  private readonly dayRows = new Map<string, SolarForecastDay>();
  private readonly requestCounts = new Map<string, number>();

  requestsOn(service: string, day: string): number {
    return this.requestCounts.get(`${service}\n${day}`) ?? 0;
  }

  addRequest(service: string, day: string): number {
    const total = this.requestsOn(service, day) + 1;
    this.requestCounts.set(`${service}\n${day}`, total);
    return total;
  }

  record(provider: string, slots: readonly SolarForecastSlot[], fetchedAt: number): void {
    const kept = this.slots.get(provider) ?? new Map<number, number>();
    for (const slot of slots) if (slot.start >= fetchedAt) kept.set(slot.start, slot.kwh);
    this.slots.set(provider, kept);
  }

  between(provider: string, from: number, to: number): SolarForecastSlot[] {
    return [...(this.slots.get(provider) ?? new Map<number, number>()).entries()]
      .filter(([start]) => start >= from && start < to)
      .sort(([a], [b]) => a - b)
      .map(([start, kwh]) => ({ start, kwh }));
  }

  saveDay(day: SolarForecastDay): void {
    this.dayRows.set(`${day.provider}\n${day.day}`, day);
  }

  lastDays(provider: string, count: number): SolarForecastDay[] {
    return [...this.dayRows.values()]
      .filter((day) => day.provider === provider)
      .sort((a, b) => b.day.localeCompare(a.day))
      .slice(0, count);
  }
}
