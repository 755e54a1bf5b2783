import { describe, expect, it } from "vitest";
import { dateOfDayNumber, dayOf } from "../../src/time/local-days.js";
import { clockMinutes, dayNumber, localDateTimeToMs, utcMsOfLocal } from "../../src/time/local-instant.js";
import { isoSeconds } from "../../src/time/service-time.js";
import { formatLocal, localDayOfWeek, localMinuteOfDay } from "../../src/time/wall-fields.js";
import { offsetMs } from "../../src/time/zone-offset.js";

const LONDON = "Europe/London";
const HOUR = 3_600_000;

describe("time zones", () => {
  it("formats instants in local time and in UTC", () => {
    const winter = Date.parse("2025-01-15T12:34:56Z");
    const summer = Date.parse("2025-07-15T23:30:00Z");
    expect(dayOf(winter, LONDON)).toBe("2025-01-15");
    expect(formatLocal(winter, LONDON)).toBe("2025-01-15 12:34:56");
    expect(dayOf(summer, LONDON)).toBe("2025-07-16");
    expect(formatLocal(summer, LONDON)).toBe("2025-07-16 00:30:00");
    expect(formatLocal(summer, "America/New_York")).toBe("2025-07-15 19:30:00");
    expect(formatLocal(summer, "Asia/Kolkata")).toBe("2025-07-16 05:00:00");
    expect(isoSeconds(summer + 789)).toBe("2025-07-15T23:30:00Z");
    expect(isoSeconds(Date.parse("2025-03-05T04:05:06Z"))).toBe("2025-03-05T04:05:06Z");
  });

  it("gives minute of day and day of week (Monday 0)", () => {
    expect(localMinuteOfDay(Date.parse("2025-07-15T23:30:00Z"), LONDON)).toBe(30);
    expect(localMinuteOfDay(Date.parse("2025-01-15T23:30:00Z"), LONDON)).toBe(1410);
    expect(localDayOfWeek(utcMsOfLocal("2025-03-30", "12:00", LONDON), LONDON)).toBe(6);
    expect(localDayOfWeek(utcMsOfLocal("2025-03-31", "00:00", LONDON), LONDON)).toBe(0);
    expect(localDayOfWeek(Date.parse("2025-07-15T23:30:00Z"), LONDON)).toBe(2);
  });

  it("London's spring-forward day 2025-03-30 is 23 hours", () => {
    const start = utcMsOfLocal("2025-03-30", "00:00", LONDON);
    const end = utcMsOfLocal("2025-03-31", "00:00", LONDON);
    expect(isoSeconds(start)).toBe("2025-03-30T00:00:00Z");
    expect(isoSeconds(end)).toBe("2025-03-30T23:00:00Z");
    expect(end - start).toBe(23 * HOUR);
    expect(isoSeconds(utcMsOfLocal("2025-03-30", "00:59", LONDON))).toBe("2025-03-30T00:59:00Z");
    expect(isoSeconds(utcMsOfLocal("2025-03-30", "02:00", LONDON))).toBe("2025-03-30T01:00:00Z");
    // 01:30 does not exist: it resolves as far after the jump as it was asked before it.
    expect(isoSeconds(utcMsOfLocal("2025-03-30", "01:30", LONDON))).toBe("2025-03-30T01:30:00Z");
    expect(formatLocal(Date.parse("2025-03-30T00:59:59Z"), LONDON)).toBe("2025-03-30 00:59:59");
    expect(formatLocal(Date.parse("2025-03-30T01:00:00Z"), LONDON)).toBe("2025-03-30 02:00:00");
    expect(localMinuteOfDay(Date.parse("2025-03-30T01:00:00Z"), LONDON)).toBe(120);
    expect(offsetMs(Date.parse("2025-03-30T00:45:00Z"), LONDON)).toBe(0);
    expect(offsetMs(Date.parse("2025-03-30T01:00:00Z"), LONDON)).toBe(HOUR);
  });

  it("London's fall-back day 2025-10-26 is 25 hours", () => {
    const start = utcMsOfLocal("2025-10-26", "00:00", LONDON);
    const end = utcMsOfLocal("2025-10-27", "00:00", LONDON);
    expect(isoSeconds(start)).toBe("2025-10-25T23:00:00Z");
    expect(isoSeconds(end)).toBe("2025-10-27T00:00:00Z");
    expect(end - start).toBe(25 * HOUR);
    // 01:30 happens twice: the first one is meant.
    expect(isoSeconds(utcMsOfLocal("2025-10-26", "01:30", LONDON))).toBe("2025-10-26T00:30:00Z");
    expect(isoSeconds(utcMsOfLocal("2025-10-26", "02:00", LONDON))).toBe("2025-10-26T02:00:00Z");
    expect(formatLocal(Date.parse("2025-10-26T00:30:00Z"), LONDON)).toBe("2025-10-26 01:30:00");
    expect(formatLocal(Date.parse("2025-10-26T01:30:00Z"), LONDON)).toBe("2025-10-26 01:30:00");
    expect(dayOf(Date.parse("2025-10-25T23:30:00Z"), LONDON)).toBe("2025-10-26");
  });

  it("handles other zones, including half-hour offsets and the southern hemisphere", () => {
    expect(isoSeconds(utcMsOfLocal("2025-03-09", "00:00", "America/New_York"))).toBe("2025-03-09T05:00:00Z");
    expect(isoSeconds(utcMsOfLocal("2025-03-10", "00:00", "America/New_York"))).toBe("2025-03-10T04:00:00Z");
    expect(isoSeconds(utcMsOfLocal("2025-06-01", "08:15", "Asia/Kolkata"))).toBe("2025-06-01T02:45:00Z");
    expect(isoSeconds(utcMsOfLocal("2025-04-06", "00:00", "Australia/Sydney"))).toBe("2025-04-05T13:00:00Z");
    expect(
      utcMsOfLocal("2025-04-07", "00:00", "Australia/Sydney") - utcMsOfLocal("2025-04-06", "00:00", "Australia/Sydney"),
    ).toBe(25 * HOUR);
    expect(utcMsOfLocal("2025-06-01", "12:00", "UTC")).toBe(Date.parse("2025-06-01T12:00:00Z"));
  });

  it("parses local datetimes, dates and clock times", () => {
    expect(localDateTimeToMs("2025-07-01", LONDON)).toBe(Date.parse("2025-06-30T23:00:00Z"));
    expect(localDateTimeToMs("2025-07-01 10:20:30", LONDON)).toBe(Date.parse("2025-07-01T09:20:30Z"));
    expect(localDateTimeToMs("2025-07-01T10:20", LONDON)).toBe(Date.parse("2025-07-01T09:20:00Z"));
    expect(clockMinutes("05:30")).toBe(330);
    expect(clockMinutes("05:30:30")).toBe(330.5);
    expect(clockMinutes("24:00")).toBeUndefined();
    expect(clockMinutes("5.30")).toBeUndefined();
    expect(() => utcMsOfLocal("2025-13", "00:00", LONDON)).toThrow(RangeError);
    expect(dayNumber("1970-01-02")).toBe(1);
    expect(dateOfDayNumber(dayNumber("2024-02-29"))).toBe("2024-02-29");
  });

  it("agrees with Intl over a year of hours", () => {
    const format = new Intl.DateTimeFormat("sv-SE", {
      timeZone: LONDON,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    for (
      let ms = Date.parse("2025-01-01T00:17:00Z");
      ms < Date.parse("2026-01-01T00:00:00Z");
      ms += 7 * HOUR + 60_000
    ) {
      expect(formatLocal(ms, LONDON)).toBe(format.format(ms));
      const local = formatLocal(ms, LONDON);
      const back = utcMsOfLocal(local.slice(0, 10), local.slice(11), LONDON);
      if (local.slice(11, 13) !== "01" || !local.startsWith("2025-10-26")) expect(back).toBe(ms);
    }
  });
});
