import { firstValueFrom, toArray } from "rxjs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Harness, SMART, startHarness } from "./harness.js";

describe("stop()", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  it("abandons an in-flight request and completes the readings", async () => {
    h = await startHarness();
    const { telemetry, isCompleted } = await h.start();
    const before = h.requests.length;

    await h.admin("/slow", { ms: 5_000, count: 1 });
    telemetry.refresh(SMART);
    // Waiting for the request to leave (I/O), not for time: no fixed sleep.
    await vi.waitFor(() => expect(h?.inflight()).toBe(1));

    telemetry.stop();
    // Abandoned within the 50 ms the test always allowed.
    await vi.waitFor(() => expect(h?.inflight()).toBe(0), { timeout: 50, interval: 5 });
    expect(isCompleted()).toBe(true);
    // The abandoned attempt got no answer, and nothing was retried.
    expect(h.requests.slice(before)).toEqual([
      expect.objectContaining({ endpoint: "Get Smart Device Data", status: undefined }),
    ]);
    // No timer is left to poll again.
    expect(h.clock.pending).toBe(0);
  });

  it("completes at once for a subscriber that comes after it", async () => {
    h = await startHarness();
    const { telemetry } = await h.start();
    telemetry.stop();
    const before = h.requests.length;
    await expect(firstValueFrom(telemetry.events$.pipe(toArray()))).resolves.toEqual([]);
    expect(h.requests.length).toBe(before);
  });
});
