import { fork } from "node:child_process";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configSchema } from "../src/config/index.js";
import { startTestBroker } from "../test/helpers/broker.js";
import type { FromChild, ToChild } from "./daemon-child.js";
import {
  epochMs,
  type Hit,
  memoryOf,
  nextMessage,
  sleep,
  startCountingProxy,
  startSimulatorChild,
  stopChild,
  transpileDaemon,
  verdict,
  watchDiscovery,
} from "./daemon-harness.js";

/**
 * The daemon against a fleet on one token, sped up as the daemon bench does: the simulator's
 * clock runs SPEED times faster, every poll interval of the daemon is divided by SPEED, and
 * the token's budget (daemon and simulator alike) is 300 × SPEED per real minute, which is
 * 300 per simulated minute. Figures are given in simulated time unless said otherwise.
 */
const SPEED = 10;
const LIMIT_PER_MINUTE = 300;
/** Simulated minutes per fleet: a first poll cycle (about 5 at 1,000 inverters), then the steady window. */
const RUN_MINUTES = 20;
const STEADY_MINUTES = 10;
const SAMPLE_EVERY_MS = 5_000;
const FRESH_MS = 5 * 60_000;
const MEMORY_TARGET_MB = 250;
/**
 * Growth over the steady window that still counts as flat, in MB per simulated minute: the heap
 * after a full collection (what the daemon holds), and resident memory, which swings by 10 to
 * 20 MB as the allocator keeps and returns pages, so only a clear rise counts there.
 */
const FLAT_HEAP_MB_PER_MINUTE = 0.2;
const FLAT_RSS_MB_PER_MINUTE = 1;
const DISCOVERY_PREFIX = "homeassistant";
const LIVE = /^\/v1\/inverter\/([^/]+)\/system-data\/latest$/;

interface Sample {
  /** Simulated minutes since startApp() resolved. */
  readonly minute: number;
  readonly rssMb: number;
  readonly heapMb: number;
}

interface PlanLine {
  readonly msg: string;
  readonly intervalsMs: { readonly inverter: number };
  readonly requiredPerMinute: number;
}

const toMb = (bytes: number): number => bytes / 1_048_576;
const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length === 0
    ? Number.NaN
    : sorted.length % 2
      ? (sorted[mid] ?? 0)
      : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

/** Least-squares slope of y over x. */
function slope(points: readonly { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const num = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const den = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return den === 0 ? Number.NaN : num / den;
}

function scaledPoll(): Record<string, string> {
  const defaults = configSchema.parse({}).poll;
  return Object.fromEntries(Object.entries(defaults).map(([key, ms]) => [key, `${ms / SPEED}ms`]));
}

/**
 * When the last device got its first config (Home Assistant shows the device from then on) and
 * its last one (every entity there), in epoch ms. A device's count may end below the
 * inventory's: what its first readings show (one solar array, not two) replaces the guess.
 */
function announced(expected: Readonly<Record<string, number>>, firstSeen: ReadonlyMap<string, number>) {
  const seen = new Map<string, { first: number; last: number }>();
  for (const [topic, at] of firstSeen) {
    const device = topic.split("/").at(-3) ?? "";
    const entry = seen.get(device);
    seen.set(device, { first: Math.min(entry?.first ?? at, at), last: Math.max(entry?.last ?? at, at) });
  }
  let first = 0;
  let last = 0;
  let missing = 0;
  for (const device of Object.keys(expected)) {
    const entry = seen.get(device);
    if (!entry) missing++;
    else {
      first = Math.max(first, entry.first);
      last = Math.max(last, entry.last);
    }
  }
  return { first, last, missing };
}

/** Per inverter: the age of its live values at `end` and the longest gap between reads from `from`, simulated ms. */
function freshness(hits: readonly Hit[], serials: readonly string[], from: number, end: number) {
  const reads = new Map<string, number[]>(serials.map((s) => [s, []]));
  for (const hit of hits) {
    const match = LIVE.exec(hit.path);
    if (match?.[1]) reads.get(match[1].toLowerCase())?.push(hit.at);
  }
  const ages: number[] = [];
  const gaps: number[] = [];
  let never = 0;
  for (const times of reads.values()) {
    const last = times.at(-1);
    if (last === undefined) {
      never++;
      continue;
    }
    ages.push((end - last) * SPEED);
    let gap = 0;
    let previous = from;
    for (const at of times.filter((t) => t >= from)) {
      gap = Math.max(gap, at - previous);
      previous = at;
    }
    gaps.push(Math.max(gap, end - previous) * SPEED);
  }
  return { ages, gaps, never };
}

async function runFleet(size: number): Promise<void> {
  const simulator = await startSimulatorChild(`fleet:${size}`, {
    speed: SPEED,
    requestsPerMinute: LIMIT_PER_MINUTE * SPEED,
    recentFleet: true,
  });
  const proxy = await startCountingProxy(simulator.ready.url);
  const broker = await startTestBroker({ unlimitedQueues: true });
  const discovery = await watchDiscovery(broker.url, DISCOVERY_PREFIX);
  const dir = mkdtempSync(join(tmpdir(), "e2m-fleet-bench-"));
  const child = fork(transpileDaemon(join(dir, "js")), [], {
    execArgv: ["--expose-gc"],
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  let plan: PlanLine | undefined;
  const problems: string[] = [];
  let pending = "";
  const logFile = process.env.FLEET_LOG;
  child.stderr?.on("data", (chunk: Buffer) => {
    if (logFile) appendFileSync(logFile, chunk);
    pending += chunk.toString();
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.startsWith("{")) {
        if (line.trim()) problems.push(line.trim());
        continue;
      }
      const entry = JSON.parse(line) as { level: number; msg: string; intervalsMs?: unknown };
      if (entry.intervalsMs) plan = entry as unknown as PlanLine;
      else if (entry.level >= 40) problems.push(entry.msg);
    }
  });
  try {
    const started = nextMessage(child, "started");
    const config = {
      cloud: { url: proxy.url, token: simulator.ready.token, requests_per_minute: LIMIT_PER_MINUTE * SPEED },
      mqtt: { url: broker.url },
      homeassistant: { discovery_prefix: DISCOVERY_PREFIX },
      poll: scaledPoll(),
      store: { path: join(dir, "energy2mqtt.db") },
      log: { level: "info" as const },
    };
    child.send({ type: "start", config, summaryLater: true, speed: SPEED } satisfies ToChild);
    const ready = await started;
    // Measured from when startApp() resolved: a fleet's start (its first round, every device's
    // discovery) may take minutes, and the steady window must come after it.
    const minuteOf = (at: number): number => ((at - ready.resolvedAt) * SPEED) / 60_000;
    const end = ready.resolvedAt + (RUN_MINUTES * 60_000) / SPEED;
    const samples: Sample[] = [];
    let last: Extract<FromChild, { type: "memory" }> | undefined;
    while (epochMs() < end) {
      await sleep(Math.min(SAMPLE_EVERY_MS, Math.max(0, end - epochMs())));
      last = await memoryOf(child);
      samples.push({ minute: minuteOf(epochMs()), rssMb: toMb(last.rssBytes), heapMb: toMb(last.heapBytes) });
    }
    const endAt = epochMs();
    const summaryReply = nextMessage(child, "summary");
    child.send({ type: "summary" } satisfies ToChild);
    const summary = await summaryReply;
    report({
      summary,
      size,
      ready,
      plan,
      problems,
      samples,
      maxRssMb: last ? toMb(last.maxRssBytes) : Number.NaN,
      announced: announced(summary.discoveryCounts, discovery.firstSeen),
      hits: proxy.hits,
      statuses: proxy.statuses,
      endAt,
      steadyFrom: ready.resolvedAt + ((RUN_MINUTES - STEADY_MINUTES) * 60_000) / SPEED,
    });
  } finally {
    await stopChild(child);
    await discovery.close();
    await broker.stop();
    await proxy.close();
    simulator.child.disconnect();
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Figures {
  readonly size: number;
  readonly ready: Extract<FromChild, { type: "started" }>;
  readonly summary: Extract<FromChild, { type: "summary" }>;
  readonly plan: PlanLine | undefined;
  readonly problems: readonly string[];
  readonly samples: readonly Sample[];
  readonly maxRssMb: number;
  readonly announced: { first: number; last: number; missing: number };
  readonly hits: readonly Hit[];
  readonly statuses: ReadonlyMap<number, number>;
  readonly endAt: number;
  readonly steadyFrom: number;
}

function report(f: Figures): void {
  const { ready, summary, plan } = f;
  const devices = Object.keys(summary.discoveryCounts).length;
  const configs = Object.values(summary.discoveryCounts).reduce((s, n) => s + n, 0);
  const liveCycleMs = plan ? plan.intervalsMs.inverter * SPEED : Number.NaN;
  console.log(
    `fleet:${f.size}: startApp() resolved ${((ready.resolvedAt - ready.calledAt) / 1000).toFixed(1)} s after it was called (real time); then ${RUN_MINUTES} simulated minutes, the last ${STEADY_MINUTES} the steady window`,
  );
  console.log(
    `  start-up line, as logged with the bench's intervals ÷${SPEED} and budget ×${SPEED}: ${plan?.msg ?? "MISSING"}`,
  );
  console.log(`    the same at 1x, by the daemon's own planning code: ${summary.planAtRealSpeed ?? "MISSING"}`);

  const { first, last, missing } = f.announced;
  const firstMs = first - ready.calledAt;
  const lastMs = last - ready.calledAt;
  console.log(
    `  discovery: ${devices} devices (inverters and their dongles, ${configs} configs from the inventory): every one shown ${(firstMs / 1000).toFixed(1)} s ` +
      `and complete ${(lastMs / 1000).toFixed(1)} s after start, in real time${missing > 0 ? `; ${missing} never announced` : ""}; ` +
      `the first live cycle takes ${(liveCycleMs / 1000).toFixed(0)} s at 1x (target: within it: ${verdict(missing === 0 && lastMs <= liveCycleMs)})`,
  );

  const steady = f.samples.filter((s) => s.minute >= RUN_MINUTES - STEADY_MINUTES);
  const firstSample = f.samples[0];
  const steadyMb = median(steady.map((s) => s.rssMb));
  const growth = slope(steady.map((s) => ({ x: s.minute, y: s.rssMb })));
  const heapGrowth = slope(steady.map((s) => ({ x: s.minute, y: s.heapMb })));
  const timeline = f.samples
    .filter((_, i) => i % Math.max(1, Math.floor(f.samples.length / 8)) === 0)
    .map((s) => `${s.minute.toFixed(0)}m ${s.rssMb.toFixed(0)}/${s.heapMb.toFixed(0)}`)
    .join(", ");
  const flat = heapGrowth <= FLAT_HEAP_MB_PER_MINUTE && growth <= FLAT_RSS_MB_PER_MINUTE;
  console.log(
    `  resident memory (after GC): first sample ${firstSample?.rssMb.toFixed(0)} MB, steady ${steadyMb.toFixed(0)} MB, ` +
      `peak ${f.maxRssMb.toFixed(0)} MB (kernel maximum); steady heap ${median(steady.map((s) => s.heapMb)).toFixed(0)} MB; ` +
      `slope ${growth.toFixed(2)} MB resident and ${heapGrowth.toFixed(3)} MB heap per simulated minute ` +
      `(target: peak < ${MEMORY_TARGET_MB} MB: ${verdict(f.maxRssMb < MEMORY_TARGET_MB)}; flat, heap <= ${FLAT_HEAP_MB_PER_MINUTE} and resident <= ${FLAT_RSS_MB_PER_MINUTE} MB a minute: ${verdict(flat)})`,
  );
  console.log(`    over time (simulated minute, resident/heap MB): ${timeline}`);

  const inWindow = f.hits.filter((h) => h.at >= f.steadyFrom && h.at < f.endAt);
  const minutes = ((f.endAt - f.steadyFrom) * SPEED) / 60_000;
  const limited = f.statuses.get(429) ?? 0;
  const byEndpoint = new Map<string, number>();
  for (const hit of inWindow) byEndpoint.set(hit.endpoint, (byEndpoint.get(hit.endpoint) ?? 0) + 1);
  const breakdown = [...byEndpoint]
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => `${name} ${(n / minutes).toFixed(1)}`)
    .join(", ");
  console.log(
    `  requests: ${(inWindow.length / minutes).toFixed(1)} per simulated minute in the steady window (limit ${LIMIT_PER_MINUTE}), ` +
      `${f.hits.length} in all; answered 429: ${limited} (target 0: ${verdict(limited === 0)})`,
  );
  console.log(`    per minute by endpoint: ${breakdown}`);

  const serials = Object.keys(summary.discoveryCounts).filter((id) => /^s/.test(id));
  const fresh = freshness(f.hits, serials, f.steadyFrom, f.endAt);
  const maxAge = Math.max(...fresh.ages);
  const maxGap = Math.max(...fresh.gaps);
  console.log(
    `  live values of ${serials.length} inverters at the end: age max ${(maxAge / 1000).toFixed(0)} s, median ${(median(fresh.ages) / 1000).toFixed(0)} s; ` +
      `longest gap between reads in the steady window max ${(maxGap / 1000).toFixed(0)} s, median ${(median(fresh.gaps) / 1000).toFixed(0)} s; ` +
      `never read: ${fresh.never} (target: every one at most ${FRESH_MS / 60_000} minutes old: ${verdict(fresh.never === 0 && maxGap <= FRESH_MS)})`,
  );
  if (f.problems.length > 0) {
    const counts = new Map<string, number>();
    for (const p of f.problems) counts.set(p, (counts.get(p) ?? 0) + 1);
    const shown = [...counts].slice(0, 5).map(([p, n]) => `${n}× ${p.slice(0, 160)}`);
    console.log(`  warnings and errors logged: ${f.problems.length}: ${shown.join(" | ")}`);
  }
}

export async function fleetBenchmark(): Promise<void> {
  console.log(
    `fleet: the daemon (a child process, as \`node dist/\` runs it) against the simulator (its own process) and mosquitto; clock ${SPEED}x, every poll interval ÷${SPEED}, one token's budget of ${LIMIT_PER_MINUTE} a simulated minute`,
  );
  // FLEET_SIZES=200 runs one size; FLEET_LOG=FILE keeps the daemon's log.
  const sizes = (process.env.FLEET_SIZES ?? "200,1000").split(",").map(Number);
  for (const size of sizes) await runFleet(size);
}
