import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_POLL, type Harness, HOUSE, startHarness } from "./harness.js";

const MINUTE = 60_000;
const CONFIGURED = 300;

/**
 * The fault campaign's reproduction (issue 23, item 1): the server's limit drops to 1 a minute
 * for one command and comes back to 300. The budget must come back with it, and the polls too.
 */
describe("rate budget after the server's limit tightens and loosens again", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  it("returns to the configured limit and polls at the configured cadence again", async () => {
    h = await startHarness("owner", { requestsPerMinute: CONFIGURED });
    await h.start(DEFAULT_POLL);
    await h.advance(2 * MINUTE);
    const budget = h.client.http.budget;
    expect(budget.state().limit).toBe(CONFIGURED);

    await h.admin("/rate-limit", { requests_per_minute: 1 });
    const command = await h.client.inverterControl.readSetting(HOUSE, 71, { priority: "command" });
    expect(command).toBeDefined();
    // The tighter limit is obeyed at once.
    expect(budget.state().limit).toBe(1);

    await h.admin("/rate-limit", { requests_per_minute: 300 });
    // One window for the budget's own count to clear, and the first answer under the old limit.
    await h.advance(3 * MINUTE);
    expect(budget.state()).toMatchObject({ limit: CONFIGURED, configured: CONFIGURED, rateLimitedInARow: 0 });

    const from = h.requests.length;
    await h.advance(10 * MINUTE);
    const after = h.requests.slice(from);
    const count = (endpoint: string) => after.filter((r) => r.endpoint === endpoint).length;
    expect(count("Get Latest System Data")).toBe(10 * (MINUTE / DEFAULT_POLL.inverter));
    expect(count("Get EV Charger")).toBe(10 * (MINUTE / DEFAULT_POLL.ev_charger));
    expect(after.every((r) => r.status === 200)).toBe(true);
  });

  it("backs off longer after each 429 in a row, probes alone, and lets the rest go once a probe is answered", async () => {
    const sent: { at: number; status: number | undefined; endpoint: string }[] = [];
    let now = (): number => 0;
    h = await startHarness("owner", {
      requestsPerMinute: CONFIGURED,
      client: { onRequest: (event) => sent.push({ at: now(), status: event.status, endpoint: event.endpoint }) },
    });
    now = h.now;
    const { client } = h;
    await h.admin("/rate-limit", { requests_per_minute: 1 });
    await client.inverterControl.readSetting(HOUSE, 71, { priority: "command" });
    expect(client.http.budget.state().limit).toBe(1);

    // Three polls wait; the server (its window runs on the wall clock, which hardly moves) refuses each attempt.
    const polls = [1, 2, 3].map(() =>
      client.inverterData.systemDataLatest(HOUSE).then(
        () => "answered",
        (error: unknown) => (error as Error).name,
      ),
    );
    await h.advance(10 * MINUTE);
    const refused = sent.filter((r) => r.status === 429).map((r) => r.at);
    expect(refused.length).toBeGreaterThanOrEqual(3);
    const gaps = refused.slice(1).map((at, i) => at - (refused[i] ?? 0));
    for (const [i, gap] of gaps.entries()) {
      if (i > 0) expect(gap, `gap ${i} between 429s (gaps ${gaps.join(", ")})`).toBeGreaterThan(gaps[i - 1] ?? 0);
    }
    expect(client.http.budget.state().rateLimitedInARow).toBe(refused.length);

    await h.admin("/rate-limit", { requests_per_minute: 300 });
    const before = sent.length;
    await h.advance(20 * MINUTE);
    const later = sent.slice(before);
    // The probe is answered, the limit restored, and every poll still waiting goes at that instant.
    expect(later[0]?.status).toBe(200);
    expect(later.filter((r) => r.endpoint === "Get Latest System Data").every((r) => r.at === later[0]?.at)).toBe(true);
    expect(client.http.budget.state()).toMatchObject({ limit: CONFIGURED, rateLimitedInARow: 0 });
    expect(await Promise.all(polls)).toContain("answered");
  });
});
