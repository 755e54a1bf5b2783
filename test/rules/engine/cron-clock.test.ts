import { describe, expect, it } from "vitest";
import { CronClock } from "../../../src/rules/engine/cron-clock.js";
import { loadRules } from "../../../src/rules/file/load.js";
import { rulesFile, utc } from "../helpers.js";

const LONDON = "Europe/London";
const HOUR = 3_600_000;

function rulesOf(crons: Record<string, string>) {
  const lines = ["tariffs:", "  import: { type: fixed, price: 0.25 }", "rules:"];
  for (const [name, cron] of Object.entries(crons)) {
    lines.push(`  - name: ${name}`, `    when: { cron: "${cron}" }`, "    do: [{ snapshot: take }]");
  }
  return loadRules(rulesFile(lines)).rules.rules;
}

describe("the engine's cron clock", () => {
  it("is due at each rule's next time, and arms it again for the one after", () => {
    const start = utc("2026-11-20T12:00");
    const clock = new CronClock(rulesOf({ morning: "0 7 * * *", evening: "0 19 * * *" }), LONDON, start);
    expect(clock.nextCheck()).toBe(utc("2026-11-20T19:00"));
    expect(clock.due(utc("2026-11-20T18:59"))).toEqual([]);
    expect(clock.due(utc("2026-11-20T19:00"))).toEqual(["evening"]);
    expect(clock.nextCheck()).toBe(utc("2026-11-21T07:00"));
    expect(clock.due(utc("2026-11-21T07:00"))).toEqual(["morning"]);
    expect(clock.nextCheck()).toBe(utc("2026-11-21T19:00"));
  });

  it("runs a time missed while the machine slept once, late, and skips the ones in between", () => {
    const clock = new CronClock(rulesOf({ hourly: "0 * * * *" }), LONDON, utc("2026-11-20T12:30"));
    const late = utc("2026-11-20T17:20");
    expect(clock.due(late)).toEqual(["hourly"]);
    expect(clock.nextCheck()).toBe(utc("2026-11-20T18:00"));
    expect(clock.due(late)).toEqual([]);
  });

  it("looks again, without running, when the next time is beyond its lookahead", () => {
    const start = utc("2026-11-20T12:00");
    const clock = new CronClock(rulesOf({ spring: "0 9 1 3 *" }), LONDON, start);
    expect(clock.nextCheck()).toBe(start + 25 * HOUR);
    expect(clock.due(start + 25 * HOUR)).toEqual([]);
    expect(clock.nextCheck()).toBe(start + 50 * HOUR);
  });

  it("has nothing to wait for without cron rules", () => {
    expect(new CronClock([], LONDON, utc("2026-11-20T12:00")).nextCheck()).toBe(Number.POSITIVE_INFINITY);
  });
});
