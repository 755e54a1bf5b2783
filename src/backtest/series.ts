/**
 * The half-hours a backtest replays: the house's load and solar as metered and the prices of each
 * half-hour, in the time zone the prices are published in (Agile's next day at 16:00 local time).
 */
export interface HalfHourSeries {
  /** Slot starts, epoch ms, one per half-hour with no gaps. */
  readonly starts: readonly number[];
  /** GBP per kWh. */
  readonly importPrice: readonly number[];
  readonly exportPrice: readonly number[];
  /** kWh per half-hour. */
  readonly load: readonly number[];
  readonly solar: readonly number[];
  /** IANA time zone of the tariff's clock: when prices are published, what "07:00" means. */
  readonly timeZone: string;
}
