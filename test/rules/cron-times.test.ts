import { describe, expect, it } from "vitest";
import { cronTimes, nextCronTime } from "../../src/rules/file/cron-times.js";
import { utc } from "./helpers.js";

const LONDON = "Europe/London";
const isoSeconds = (ms: number): string => new Date(ms).toISOString().slice(0, 19);
const times = (expression: string, from: string, to: string): string[] =>
  cronTimes(expression, utc(from), utc(to), LONDON).map(isoSeconds);

describe("cron times (the one path the engine and rules plan read)", () => {
  it("five fields: a weekday range skips the weekend", () => {
    // Friday 20 to Tuesday 24 November 2026 (GMT, so local is UTC).
    expect(times("30 7 * * 1-5", "2026-11-20T00:00", "2026-11-24T00:00")).toEqual([
      "2026-11-20T07:30:00",
      "2026-11-23T07:30:00",
    ]);
  });

  it("six fields: the first one is seconds", () => {
    expect(times("15,45 0 7 * * *", "2026-11-20T00:00", "2026-11-21T00:00")).toEqual([
      "2026-11-20T07:00:15",
      "2026-11-20T07:00:45",
    ]);
  });

  it("steps, lists and names of months and days", () => {
    expect(times("*/20 9 * * *", "2026-11-20T00:00", "2026-11-21T00:00")).toEqual([
      "2026-11-20T09:00:00",
      "2026-11-20T09:20:00",
      "2026-11-20T09:40:00",
    ]);
    expect(times("0 9 * nov mon,wed", "2026-11-20T00:00", "2026-11-27T00:00")).toEqual([
      "2026-11-23T09:00:00",
      "2026-11-25T09:00:00",
    ]);
    expect(times("0 9 * * 7", "2026-11-20T00:00", "2026-11-27T00:00")).toEqual(["2026-11-22T09:00:00"]);
    expect(times("0 0 1-10/4 * *", "2026-11-01T00:00", "2026-12-01T00:00")).toEqual([
      "2026-11-01T00:00:00",
      "2026-11-05T00:00:00",
      "2026-11-09T00:00:00",
    ]);
  });

  it("last days, nearest weekdays and the nth weekday of the month", () => {
    const november = (expression: string) => times(expression, "2026-11-01T00:00", "2026-12-01T00:00");
    const february = (expression: string) => times(expression, "2026-02-01T00:00", "2026-03-01T00:00");
    expect(november("0 9 L * *")).toEqual(["2026-11-30T09:00:00"]);
    expect(november("0 9 * * 5#2")).toEqual(["2026-11-13T09:00:00"]);
    expect(november("0 9 * * 5L")).toEqual(["2026-11-27T09:00:00"]);
    expect(november("0 9 * * 0L")).toEqual(["2026-11-29T09:00:00"]);
    // February 2026 starts on a Sunday and ends on a Saturday.
    expect(february("0 9 LW * *")).toEqual(["2026-02-27T09:00:00"]);
    expect(february("0 9 1W * *")).toEqual(["2026-02-02T09:00:00"]);
    expect(february("0 9 L-2 * *")).toEqual(["2026-02-26T09:00:00"]);
  });

  it("reads the local clock across a change of summer time", () => {
    // Clocks go forward in London on Sunday 29 March 2026.
    expect(times("0 9 * * *", "2026-03-28T00:00", "2026-03-30T00:00")).toEqual([
      "2026-03-28T09:00:00",
      "2026-03-29T08:00:00",
    ]);
    // Midnight just after the change, and 01:30, which does not exist that night.
    expect(times("0 0 * * *", "2026-03-28T12:00", "2026-03-30T12:00")).toEqual([
      "2026-03-29T00:00:00",
      "2026-03-29T23:00:00",
    ]);
    expect(times("30 1 * * *", "2026-03-29T00:00", "2026-03-30T12:00")).toEqual(["2026-03-30T00:30:00"]);
  });

  it("the next time of several expressions is the earliest; none in the range is undefined", () => {
    const from = utc("2026-11-20T08:00");
    const to = utc("2026-11-21T08:00");
    expect(nextCronTime(["0 12 * * *", "30 9 * * *"], from, to, LONDON)).toBe(utc("2026-11-20T09:30"));
    expect(nextCronTime(["0 8 * * *"], from, to, LONDON)).toBe(from);
    expect(nextCronTime(["0 9 1 3 *"], from, to, LONDON)).toBeUndefined();
  });
});
