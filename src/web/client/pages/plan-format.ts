import { zoneName } from "../local-time.js";

/**
 * How the Plan page writes times, prices and money: in the browser's language (24-hour where it
 * uses that), on the daemon's configured time zone, which the page names.
 */
export interface PlanFormat {
  /** "Mon 14:30". */
  readonly time: (ms: number) => string;
  /** "14:30". */
  readonly clock: (ms: number) => string;
  /** "14:30–16:00", with the weekday when the span starts on another day than `today`. */
  readonly span: (start: number, end: number) => string;
  /** "Times in Europe/London (GMT)". */
  readonly zoneText: (at: number) => string;
  /** A price per kWh: "7.1p" in GBP, else "0.071 EUR". */
  readonly price: (value: number) => string;
  /** An amount: "£0.74". */
  readonly money: (value: number) => string;
}

export function planFormat(timeZone: string, currency: string): PlanFormat {
  const withDay = new Intl.DateTimeFormat(undefined, {
    timeZone,
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
  });
  const clockOnly = new Intl.DateTimeFormat(undefined, { timeZone, hour: "2-digit", minute: "2-digit" });
  const day = new Intl.DateTimeFormat(undefined, { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
  const moneyFormat = currencyFormat(currency);
  return {
    time: (ms) => withDay.format(ms),
    clock: (ms) => clockOnly.format(ms),
    span: (start, end) =>
      day.format(start) === day.format(end)
        ? `${withDay.format(start)}–${clockOnly.format(end)}`
        : `${withDay.format(start)} – ${withDay.format(end)}`,
    zoneText: (at) => `Times in ${zoneName(timeZone, at)}`,
    price: (value) =>
      currency === "GBP" ? `${(value * 100).toFixed(1).replace(/\.0$/, "")}p` : `${value.toFixed(3)} ${currency}`,
    money: (value) => moneyFormat(value),
  };
}

function currencyFormat(currency: string): (value: number) => string {
  try {
    const format = new Intl.NumberFormat(undefined, { style: "currency", currency, minimumFractionDigits: 2 });
    // Rounded to the cent first, so that a few hundredths of a penny are not "-£0.00".
    return (value) => format.format(Math.round(value * 100) / 100 || 0);
  } catch {
    // Not an ISO 4217 code: the number and the code as the rules file gives it.
    return (value) => `${(Math.round(value * 100) / 100 || 0).toFixed(2)} ${currency}`;
  }
}
