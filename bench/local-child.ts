// Runs the daemon's LAN read path (the local source: sessions, framer, decoding, guards) in a
// process of its own for the local benchmark, so that its CPU time and resident memory are its own
// and not the bench's. The benchmark runs it as transpiled JavaScript under plain node.
import { localSource } from "../src/sources/index.js";
import type { Resource } from "../src/sources/resource.js";
import { systemClock } from "../src/time/clock.js";

export interface LocalRun {
  readonly type: "run";
  readonly ports: readonly number[];
  readonly cycles: number;
  /** Cycles run first and not measured. */
  readonly warmup: number;
  /** The poll interval, sped up from the daemon's 10 s so that enough cycles fit in the bench. */
  readonly intervalMs: number;
  /** The daemon's live interval the resources are built for. */
  readonly liveMs: number;
}

export type FromLocalChild =
  | {
      readonly type: "done";
      /** Each live resource's poll, ms, over the measured cycles. */
      readonly latenciesMs: number[];
      /** CPU time of this process over the measured cycles (process.resourceUsage), µs. */
      readonly userUs: number;
      readonly systemUs: number;
      /** CPU time of each measured cycle (its poll and the wait after it), µs. */
      readonly cycleCpuUs: number[];
      /** Wall time of the measured cycles, ms. */
      readonly wallMs: number;
      /** Resident memory and heap after the cycles, garbage collected; the most ever resident. */
      readonly rssBytes: number;
      readonly heapBytes: number;
      readonly maxRssBytes: number;
    }
  | { readonly type: "failed"; readonly message: string };

const send = (message: FromLocalChild): void => {
  process.send?.(message);
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function run(message: LocalRun): Promise<void> {
  const source = localSource({
    dongles: message.ports.map((port) => ({ host: "127.0.0.1", port, passive: false })),
    clock: systemClock,
    timezone: "UTC",
    liveMs: message.liveMs,
  });
  try {
    const inventory = await source.discover();
    const poll = {
      inverter: 60_000,
      meter: 300_000,
      ems: 60_000,
      ev_charger: 30_000,
      events: 300_000,
      smart_device: 300_000,
    };
    const live: Resource[] = source
      .resources(inventory, poll, () => Date.now())
      .filter((resource) => resource.periodMs === message.liveMs);
    const cycle = async (latencies: number[]): Promise<void> => {
      await Promise.all(
        live.map(async (resource) => {
          const at = performance.now();
          const result = await resource.poll(new AbortController().signal);
          if (!result.fetched) throw new Error(`${resource.name}: nothing fetched`);
          latencies.push(performance.now() - at);
        }),
      );
    };
    // Rounds unmeasured, paced as the measured ones: the first polls pay for compiling the code paths.
    for (let index = 0; index < message.warmup; index++) {
      const at = performance.now();
      await cycle([]);
      await sleep(Math.max(0, message.intervalMs - (performance.now() - at)));
    }
    const latenciesMs: number[] = [];
    const cycleCpuUs: number[] = [];
    const cpuNow = (): number => {
      const usage = process.resourceUsage();
      return usage.userCPUTime + usage.systemCPUTime;
    };
    const before = process.resourceUsage();
    const started = performance.now();
    for (let index = 0; index < message.cycles; index++) {
      const at = performance.now();
      const cpuAt = cpuNow();
      await cycle(latenciesMs);
      const rest = message.intervalMs - (performance.now() - at);
      if (index < message.cycles - 1 && rest > 0) await sleep(rest);
      cycleCpuUs.push(cpuNow() - cpuAt);
    }
    const wallMs = performance.now() - started;
    const after = process.resourceUsage();
    globalThis.gc?.();
    send({
      type: "done",
      latenciesMs,
      cycleCpuUs,
      userUs: after.userCPUTime - before.userCPUTime,
      systemUs: after.systemCPUTime - before.systemCPUTime,
      wallMs,
      rssBytes: process.memoryUsage().rss,
      heapBytes: process.memoryUsage().heapUsed,
      maxRssBytes: after.maxRSS * 1024,
    });
  } catch (error) {
    send({ type: "failed", message: error instanceof Error ? error.message : String(error) });
  } finally {
    source.close();
  }
}

process.once("message", (message: LocalRun) => {
  void run(message).then(() => process.disconnect?.());
});
