import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_POLL, type Harness, startHarness } from "./harness.js";

const MINUTE = 60_000;

describe("request rate", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  it("stays at or under 5 requests a minute in steady state with the default cadences", async () => {
    h = await startHarness();
    await h.start(DEFAULT_POLL);
    await h.advance(10 * MINUTE);

    const from = h.requests.length;
    const minutes = 60;
    await h.advance(minutes * MINUTE);
    const window = h.requests.slice(from);
    const perMinute = window.length / minutes;
    console.info(`steady state: ${window.length} requests in ${minutes} simulated minutes = ${perMinute} per minute`);
    expect(perMinute).toBeLessThanOrEqual(5);

    // Live values are as fresh as their cadence: one read per period, none skipped.
    const count = (endpoint: string) => window.filter((r) => r.endpoint === endpoint).length;
    expect(count("Get Latest System Data")).toBe(minutes * (MINUTE / DEFAULT_POLL.inverter));
    expect(count("Get Latest EMS Data")).toBe(minutes * (MINUTE / DEFAULT_POLL.ems));
    expect(count("Get EV Charger")).toBe(minutes * (MINUTE / DEFAULT_POLL.ev_charger));
    expect(window.every((r) => r.status === 200)).toBe(true);
  });
});
