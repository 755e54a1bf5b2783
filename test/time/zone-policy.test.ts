import { describe, expect, it } from "vitest";
import { addDays, dayEndMs, dayOf, dayStartMs, daysBetween, isDay, localDay } from "../../src/time/local-days.js";
import { localCandidates, localToUtc, utcMsOfLocal } from "../../src/time/local-instant.js";
import { nextLocalTime } from "../../src/time/local-time.js";
import { isoSeconds, newest, timestampCandidates, timestampMs } from "../../src/time/service-time.js";
import { HOUR_MS, MINUTE_MS } from "../../src/time/units.js";
import { formatLocal } from "../../src/time/wall-fields.js";
import { isTimeZone } from "../../src/time/zone-offset.js";

const LONDON = "Europe/London";
const NEW_YORK = "America/New_York";
const at = (iso: string): number => Date.parse(iso);

describe("one policy for the skipped and the repeated hour", () => {
  it("reads a time in the spring-forward gap with the offset before it: London 01:30 is 01:30Z", () => {
    expect(isoSeconds(utcMsOfLocal("2026-03-29", "01:30", LONDON))).toBe("2026-03-29T01:30:00Z");
    expect(isoSeconds(localToUtc(2026, 3, 29, 90, LONDON))).toBe("2026-03-29T01:30:00Z");
    expect(isoSeconds(timestampMs("2026-03-29 01:30:00", LONDON))).toBe("2026-03-29T01:30:00Z");
    expect(localCandidates("2026-03-29 01:30:00", LONDON)).toEqual([at("2026-03-29T01:30:00Z")]);
    expect(formatLocal(at("2026-03-29T01:30:00Z"), LONDON)).toBe("2026-03-29 02:30:00");
    // The last minute before the gap and the first after it are ordinary times.
    expect(isoSeconds(utcMsOfLocal("2026-03-29", "00:59", LONDON))).toBe("2026-03-29T00:59:00Z");
    expect(isoSeconds(utcMsOfLocal("2026-03-29", "02:00", LONDON))).toBe("2026-03-29T01:00:00Z");
  });

  it("reads New York's gap the same way: 02:30 on 2026-03-08 is 07:30Z (03:30 EDT)", () => {
    expect(isoSeconds(utcMsOfLocal("2026-03-08", "02:30", NEW_YORK))).toBe("2026-03-08T07:30:00Z");
    expect(isoSeconds(timestampMs("2026-03-08T02:30:00", NEW_YORK))).toBe("2026-03-08T07:30:00Z");
    expect(formatLocal(at("2026-03-08T07:30:00Z"), NEW_YORK)).toBe("2026-03-08 03:30:00");
  });

  it("takes the first occurrence of a repeated time, and lists both", () => {
    expect(isoSeconds(utcMsOfLocal("2026-10-25", "01:30", LONDON))).toBe("2026-10-25T00:30:00Z");
    expect(timestampCandidates("2026-10-25 01:30:00", LONDON)).toEqual([
      at("2026-10-25T00:30:00Z"),
      at("2026-10-25T01:30:00Z"),
    ]);
    expect(isoSeconds(utcMsOfLocal("2026-11-01", "01:30", NEW_YORK))).toBe("2026-11-01T05:30:00Z");
    expect(localCandidates("2026-11-01 01:30:00", NEW_YORK)).toEqual([
      at("2026-11-01T05:30:00Z"),
      at("2026-11-01T06:30:00Z"),
    ]);
  });

  it("starts and ends days at local midnight: 23 hours in spring, 25 in autumn", () => {
    const days: [string, string, string, string, number][] = [
      [LONDON, "2026-03-29", "2026-03-29T00:00:00Z", "2026-03-29T23:00:00Z", 23],
      [LONDON, "2026-10-25", "2026-10-24T23:00:00Z", "2026-10-26T00:00:00Z", 25],
      [LONDON, "2026-07-01", "2026-06-30T23:00:00Z", "2026-07-01T23:00:00Z", 24],
      [NEW_YORK, "2026-03-08", "2026-03-08T05:00:00Z", "2026-03-09T04:00:00Z", 23],
      [NEW_YORK, "2026-11-01", "2026-11-01T04:00:00Z", "2026-11-02T05:00:00Z", 25],
    ];
    for (const [zone, day, start, end, hours] of days) {
      expect(isoSeconds(dayStartMs(day, zone))).toBe(start);
      expect(isoSeconds(dayEndMs(day, zone))).toBe(end);
      expect((dayEndMs(day, zone) - dayStartMs(day, zone)) / HOUR_MS).toBe(hours);
      expect(localDay(at(start) + HOUR_MS, zone)).toEqual({ start: at(start), end: at(end) });
      expect(localDay(at(end) - 1, zone)).toEqual({ start: at(start), end: at(end) });
      expect(dayOf(at(start), zone)).toBe(day);
      expect(dayOf(at(end) - 1, zone)).toBe(day);
      expect(dayOf(at(end), zone)).toBe(addDays(day, 1));
      expect(timestampMs(day, zone)).toBe(at(start));
    }
  });

  it("starts a day whose midnight is skipped at its first instant (Santiago, 2026-09-06 begins 01:00)", () => {
    expect(isoSeconds(dayStartMs("2026-09-06", "America/Santiago"))).toBe("2026-09-06T04:00:00Z");
    expect(formatLocal(dayStartMs("2026-09-06", "America/Santiago"), "America/Santiago")).toBe("2026-09-06 01:00:00");
    expect(dayEndMs("2026-09-05", "America/Santiago")).toBe(dayStartMs("2026-09-06", "America/Santiago"));
  });

  it("finds the next local clock time across both changes in New York", () => {
    expect(isoSeconds(nextLocalTime(at("2026-03-07T20:00:00Z"), "07:00", NEW_YORK))).toBe("2026-03-08T11:00:00Z");
    expect(isoSeconds(nextLocalTime(at("2026-10-31T20:00:00Z"), "07:00", NEW_YORK))).toBe("2026-11-01T12:00:00Z");
  });

  it("round-trips every 45 minutes of a year in both zones, the repeated hour through its candidates", () => {
    for (const zone of [LONDON, NEW_YORK]) {
      for (let ms = at("2026-01-01T00:00:00Z"); ms < at("2027-01-01T00:00:00Z"); ms += 45 * MINUTE_MS) {
        const local = formatLocal(ms, zone);
        const candidates = timestampCandidates(local, zone);
        expect(candidates).toContain(ms);
        expect(timestampMs(local, zone)).toBe(candidates[0]);
        expect(timestampMs(local.replace(" ", "T"), zone)).toBe(candidates[0]);
      }
    }
  });
});

describe("service timestamps", () => {
  it("reads a zoned timestamp as it says and a zoneless one on the account's wall clock", () => {
    expect(timestampMs("2024-10-03T11:33:07Z", LONDON)).toBe(at("2024-10-03T11:33:07Z"));
    expect(timestampMs("2024-10-03T11:33:07+02:00", LONDON)).toBe(at("2024-10-03T09:33:07Z"));
    expect(timestampMs("2024-10-03 11:33:07", LONDON)).toBe(at("2024-10-03T10:33:07Z"));
    expect(timestampMs("2024-10-03 11:33:07.250", NEW_YORK)).toBe(at("2024-10-03T15:33:07Z"));
    expect(timestampMs("2024-12-03 11:33", LONDON)).toBe(at("2024-12-03T11:33:00Z"));
  });

  it("gives NaN for text that is no timestamp", () => {
    for (const text of ["", "yesterday", "2024-02-30", "2024-10-03 25:00:00", "2024-13-01 00:00:00"]) {
      expect(timestampMs(text, LONDON)).toBeNaN();
    }
  });

  it("picks the newest item whatever way its time is written", () => {
    const items = [
      { id: "a", time: "2026-07-01 10:30:00" },
      { id: "b", time: "2026-07-01T09:45:00Z" },
      { id: "c", time: "2026-07-01T09:15:00Z" },
    ];
    // 10:30 BST is 09:30Z: b is the newest, though a's text sorts last.
    expect(newest(items, (item) => item.time, LONDON)?.id).toBe("b");
    expect(newest([], (item: { time: string }) => item.time, LONDON)).toBeUndefined();
  });

  it("writes query datetimes to the second, without fractions", () => {
    expect(isoSeconds(at("2026-03-29T01:30:00.999Z"))).toBe("2026-03-29T01:30:00Z");
  });
});

describe("calendar days", () => {
  it("knows real dates, steps across month ends and lists ranges", () => {
    expect(isDay("2024-02-29")).toBe(true);
    expect(isDay("2023-02-29")).toBe(false);
    expect(isDay("2024-2-29")).toBe(false);
    expect(addDays("2024-02-28", 2)).toBe("2024-03-01");
    expect(addDays("2025-01-01", -1)).toBe("2024-12-31");
    expect(daysBetween("2024-12-30", "2025-01-02")).toEqual(["2024-12-30", "2024-12-31", "2025-01-01", "2025-01-02"]);
    expect(daysBetween("2025-01-02", "2025-01-01")).toEqual([]);
  });

  it("knows zones Intl knows", () => {
    expect(isTimeZone(LONDON)).toBe(true);
    expect(isTimeZone("Mars/Olympus_Mons")).toBe(false);
  });
});
