import { setImmediate as turn } from "node:timers/promises";
import { Subject, VirtualAction, VirtualTimeScheduler } from "rxjs";
import { describe, expect, it } from "vitest";
import type { PollResult, Resource } from "../../src/sources/index.js";
import { type Outcome, pollLoop } from "../../src/telemetry/poll-loop.js";
import { deviceIdOf } from "../../src/vocabulary/device-id.js";

function setup(resource: Partial<Resource> & Pick<Resource, "poll">) {
  const scheduler = new VirtualTimeScheduler(VirtualAction, Number.POSITIVE_INFINITY);
  const wake = new Subject<void>();
  const controller = new AbortController();
  const outcomes: { at: number; outcome: Outcome }[] = [];
  const subscription = pollLoop(
    { name: "test", devices: [deviceIdOf("d")], ...resource },
    { scheduler, signal: controller.signal, wake, maxBackoffMs: 5_000 },
  ).subscribe((outcome) => outcomes.push({ at: scheduler.frame, outcome }));

  /** Runs the virtual clock to `target`, letting each poll's promise settle. */
  async function runTo(target: number): Promise<void> {
    await turn();
    for (let next = scheduler.actions[0]; next && next.delay <= target; next = scheduler.actions[0]) {
      scheduler.frame = next.delay;
      scheduler.maxFrames = next.delay;
      scheduler.flush();
      await turn();
    }
    scheduler.frame = target;
  }
  return { scheduler, wake, controller, outcomes, subscription, runTo };
}

const ok: PollResult = {};

describe("pollLoop", () => {
  it("polls at once, then every period from the start of the last poll", async () => {
    const { outcomes, runTo } = setup({ periodMs: 1_000, poll: async () => ok });
    await runTo(5_000);
    expect(outcomes.map((o) => o.at)).toEqual([0, 1_000, 2_000, 3_000, 4_000, 5_000]);
  });

  it("backs off exponentially after failures, capped, and resets after a success", async () => {
    let failing = true;
    const { outcomes, runTo } = setup({
      periodMs: 1_000,
      poll: async () => {
        if (failing) throw new Error("503");
        return ok;
      },
    });
    await runTo(17_000);
    expect(outcomes.map((o) => [o.at, o.outcome.ok ? 0 : o.outcome.failures])).toEqual([
      [0, 1],
      [1_000, 2],
      [3_000, 3],
      [7_000, 4],
      [12_000, 5],
      [17_000, 6],
    ]);
    failing = false;
    await runTo(24_000);
    expect(outcomes.slice(6).map((o) => [o.at, o.outcome.ok])).toEqual([
      [22_000, true],
      [23_000, true],
      [24_000, true],
    ]);
  });

  it("a wake-up polls at once, and one during a poll polls again right after it", async () => {
    let release: (() => void) | undefined;
    let calls = 0;
    const { wake, outcomes, runTo } = setup({
      periodMs: 60_000,
      poll: () => {
        calls++;
        return calls === 2 ? new Promise<PollResult>((resolve) => (release = () => resolve(ok))) : Promise.resolve(ok);
      },
    });
    await runTo(10_000);
    wake.next();
    await runTo(10_000);
    expect(calls).toBe(2);
    wake.next();
    release?.();
    await runTo(10_000);
    expect(outcomes.map((o) => o.at)).toEqual([0, 10_000, 10_000]);
    // The period counts from the last poll.
    await runTo(70_000);
    expect(outcomes.map((o) => o.at)).toEqual([0, 10_000, 10_000, 70_000]);
  });

  it("a resource without a period polls at start and on its triggers only", async () => {
    const triggers = new Subject<void>();
    const { outcomes, runTo } = setup({ triggers, poll: async () => ok });
    await runTo(600_000);
    triggers.next();
    await runTo(700_000);
    expect(outcomes.map((o) => o.at)).toEqual([0, 600_000]);
  });

  it("aborting the signal abandons the poll in flight", async () => {
    let seen: AbortSignal | undefined;
    const { controller, subscription, runTo } = setup({
      periodMs: 1_000,
      poll: (signal) => {
        seen = signal;
        return new Promise<PollResult>(() => {});
      },
    });
    await runTo(0);
    controller.abort();
    expect(seen?.aborted).toBe(true);
    subscription.unsubscribe();
  });
});
