import { describe, expect, it } from "vitest";
import { batteryMode, presetKey } from "../../src/web/battery-mode.js";

const ZONE = "Europe/London";
/** 01:00 in London in winter (GMT) and in summer (BST, 00:00 UTC): the slots are the house's clock. */
const WINTER_1AM = Date.parse("2026-11-17T01:00:00Z");
const SUMMER_1AM = Date.parse("2026-07-17T00:00:00Z");
const NOON = Date.parse("2026-11-16T12:00:00Z");

const nobody = new Map<string, { rule: string | null }>();
const charge = (start: string, end: string, enabled: unknown = true) => ({
  "eco-mode": { enabled: true },
  "timed-charge": { enabled, slots: [{ start_time: start, end_time: end, percent_limit: 95 }] },
  "pause-battery": { mode: 0 },
});

describe("the battery's mode from the settings the daemon knows", () => {
  it("is a timed charge while its slot is open in the house's zone, eco outside it", () => {
    expect(batteryMode("SA1", charge("00:30", "05:30"), nobody, WINTER_1AM, ZONE)).toEqual({
      mode: "timed-charge",
      words: "timed charge until 05:30 (limit 95%)",
      why: "your setting",
      rule: null,
    });
    expect(batteryMode("SA1", charge("00:30", "05:30"), nobody, SUMMER_1AM, ZONE)?.mode).toBe("timed-charge");
    expect(batteryMode("SA1", charge("00:30", "05:30"), nobody, NOON, ZONE)?.mode).toBe("eco");
    // A slot past midnight is open on both sides of it.
    expect(batteryMode("SA1", charge("23:00", "02:00"), nobody, WINTER_1AM, ZONE)?.mode).toBe("timed-charge");
    expect(batteryMode("SA1", charge("23:00", "02:00"), nobody, NOON, ZONE)?.mode).toBe("eco");
    // Switched off, the slot does not count; an enable read as a number or a word counts as on.
    expect(batteryMode("SA1", charge("00:30", "05:30", false), nobody, WINTER_1AM, ZONE)?.mode).toBe("eco");
    expect(batteryMode("SA1", charge("00:30", "05:30", 1), nobody, WINTER_1AM, ZONE)?.mode).toBe("timed-charge");
  });

  it("says a paused battery first, and an export before a charge", () => {
    const paused = { ...charge("00:30", "05:30"), "pause-battery": { mode: 3 } };
    expect(batteryMode("SA1", paused, nobody, WINTER_1AM, ZONE)?.words).toBe("paused (pause charge and discharge)");
    const both = {
      ...charge("00:00", "23:59"),
      "timed-export": { enabled: true, slots: { 1: { start_time: "00:45", end_time: "01:15" } } },
    };
    expect(batteryMode("SA1", both, nobody, WINTER_1AM, ZONE)).toMatchObject({
      mode: "timed-export",
      words: "timed export until 01:15",
    });
  });

  it("names the rule that last changed the preset behind the mode, or the owner", () => {
    const authors = new Map([
      [presetKey("SA1", "timed-charge"), { rule: "battery-by-morning" }],
      [presetKey("SA1", "eco-mode"), { rule: null }],
    ]);
    expect(batteryMode("SA1", charge("00:30", "05:30"), authors, WINTER_1AM, ZONE)).toMatchObject({
      why: "rule battery-by-morning",
      rule: "battery-by-morning",
    });
    // Eco was last set by the owner (Home Assistant, the CLI, the app): the rule's charge slot is not open.
    expect(batteryMode("SA1", charge("00:30", "05:30"), authors, NOON, ZONE)).toMatchObject({
      mode: "eco",
      why: "your setting",
    });
    // Another inverter's rule says nothing of this one.
    expect(batteryMode("SB2", charge("00:30", "05:30"), authors, WINTER_1AM, ZONE)?.why).toBe("your setting");
  });

  it("is unknown before any preset is read, and says eco is off when it is", () => {
    expect(batteryMode("SA1", undefined, nobody, NOON, ZONE)).toBeUndefined();
    expect(batteryMode("SA1", {}, nobody, NOON, ZONE)).toBeUndefined();
    expect(batteryMode("SA1", { "eco-mode": { enabled: false } }, nobody, NOON, ZONE)).toMatchObject({
      mode: "other",
      words: "eco off, no timed slot open",
    });
  });
});
