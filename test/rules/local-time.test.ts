import { describe, expect, it } from "vitest";
import { localDay, localToUtc, nextLocalTime, wallClock } from "../../src/time/local-time.js";
import { iso, utc } from "./helpers.js";

const LONDON = "Europe/London";

describe("local time", () => {
  it("has 46 half-hours on the spring-forward day and 50 on the fall-back day", () => {
    const spring = localDay(utc("2026-03-29T12:00"), LONDON);
    const autumn = localDay(utc("2026-10-25T12:00"), LONDON);
    expect((spring.end - spring.start) / 1_800_000).toBe(46);
    expect((autumn.end - autumn.start) / 1_800_000).toBe(50);
    expect(iso(autumn.start)).toBe("2026-10-24T23:00");
  });

  it("reads wall clock fields in summer time, weekday counted from Monday", () => {
    const wall = wallClock(utc("2026-07-03T23:30"), LONDON);
    expect(wall).toEqual({ year: 2026, month: 7, day: 4, weekday: 5, minutes: 30 });
  });

  it("turns a skipped local time into the instant after the gap, and a repeated one into the first", () => {
    expect(iso(localToUtc(2026, 3, 29, 90, LONDON))).toBe("2026-03-29T01:30");
    expect(iso(localToUtc(2026, 10, 25, 90, LONDON))).toBe("2026-10-25T00:30");
  });

  it("finds the next 07:00 today or tomorrow, across a clock change", () => {
    expect(iso(nextLocalTime(utc("2026-11-22T16:00"), "07:00", LONDON))).toBe("2026-11-23T07:00");
    expect(iso(nextLocalTime(utc("2026-11-23T05:00"), "07:00", LONDON))).toBe("2026-11-23T07:00");
    expect(iso(nextLocalTime(utc("2026-10-24T18:00"), "07:00", LONDON))).toBe("2026-10-25T07:00");
    expect(iso(nextLocalTime(utc("2026-03-28T18:00"), "07:00", LONDON))).toBe("2026-03-29T06:00");
  });
});
