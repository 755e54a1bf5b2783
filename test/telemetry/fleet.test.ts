import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/log/log.js";
import { capture } from "../helpers/capture.js";
import { DEFAULT_POLL, type Harness, startHarness } from "./harness.js";

const MINUTE = 60_000;
const INVERTERS = 30;
const LIMIT = 30;

interface PlanLine {
  readonly level: number;
  readonly msg: string;
  readonly requiredPerMinute: number;
  readonly budgetPerMinute: number;
  readonly intervalsMs: { readonly inverter: number; readonly meter: number; readonly events: number };
}

/**
 * 30 inverters on a token of 30 requests a minute: the default intervals need 42 a minute
 * (live 30, counters 6, events 6), so they cannot all be kept. The simulator answers over real
 * HTTP; the poll timers, the budget's window and the simulator's clock run on one virtual clock.
 */
describe("a fleet larger than the token's budget", () => {
  let h: Harness | undefined;
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  afterEach(async () => {
    process.off("warning", onWarning);
    await h?.stop();
    h = undefined;
  });

  it("says so at start-up, stretches every interval alike, reads every inverter in turn, and nothing piles up", async () => {
    process.on("warning", onWarning);
    h = await startHarness("owner", { scenario: `fleet:${INVERTERS}`, requestsPerMinute: LIMIT });
    const budget = h.client.http.budget;
    const reads = new Map<string, number[]>();
    const systemDataLatest = h.client.inverterData.systemDataLatest.bind(h.client.inverterData);
    h.client.inverterData.systemDataLatest = (serial, options) => {
      const at = h?.now() ?? 0;
      return systemDataLatest(serial, options).then((data) => {
        reads.set(serial, [...(reads.get(serial) ?? []), at]);
        return data;
      });
    };
    const log = capture();
    const { inventory } = await h.start(DEFAULT_POLL, undefined, {
      logger: createLogger("info", { destination: log.stream, format: "json" }),
    });
    expect(inventory.inverters).toHaveLength(INVERTERS);

    // One line at start-up: what the configured polls need, what the token allows, the intervals used.
    const lines = log
      .text()
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as PlanLine);
    const plans = lines.filter((line) => line.intervalsMs !== undefined);
    expect(plans).toHaveLength(1);
    const plan = plans[0] as PlanLine;
    expect(plan.level).toBe(40);
    expect(plan.requiredPerMinute).toBeGreaterThanOrEqual(INVERTERS * (1 + 1 / 5 + 1 / 5));
    expect(plan.budgetPerMinute).toBe(LIMIT);
    expect(plan.msg).toContain(`need ${plan.requiredPerMinute} requests a minute`);
    expect(plan.msg).toContain(`token's ${LIMIT}`);
    // Uniformly: every interval grows by the same factor, and the message gives them.
    const factor = plan.intervalsMs.inverter / DEFAULT_POLL.inverter;
    expect(factor).toBeGreaterThan(1);
    expect(plan.intervalsMs.meter / DEFAULT_POLL.meter).toBeCloseTo(factor, 1);
    expect(plan.intervalsMs.events / DEFAULT_POLL.events).toBeCloseTo(factor, 1);
    const seconds = Math.round(plan.intervalsMs.inverter / 1000);
    expect(plan.msg).toContain(`inverter ${Math.floor(seconds / 60)}m ${seconds % 60}s`);

    let mostWaiting = 0;
    const sent: number[] = [];
    for (let minute = 1; minute <= 40; minute++) {
      const before = h.requests.length;
      await h.advance(MINUTE);
      sent.push(h.requests.length - before);
      mostWaiting = Math.max(mostWaiting, budget.state().waiting);
    }

    // Polls take turns instead of queueing: a handful wait for a slot at most, never the fleet.
    expect(mostWaiting).toBeLessThanOrEqual(3);
    expect(Math.max(...sent.slice(10))).toBeLessThanOrEqual(LIMIT);
    expect(h.requests.every((r) => r.status === 200)).toBe(true);

    // Every inverter's live data is read once per stretched interval, none starved, from the first cycle on.
    expect([...reads.keys()].sort()).toEqual(inventory.inverters.map((i) => i.serial).sort());
    const start = h.now() - 40 * MINUTE;
    for (const [serial, times] of reads) {
      const gaps = times.map((at, i) => at - (times[i - 1] ?? start));
      expect(Math.max(...gaps), serial).toBeLessThanOrEqual(plan.intervalsMs.inverter);
    }

    // No poll hangs an abort listener on a shared signal: Node would warn past 10.
    expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning").map((w) => w.message)).toEqual([]);
  }, 60_000);
});
