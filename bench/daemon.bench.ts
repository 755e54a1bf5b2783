import { fork, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmbeddedBroker } from "../src/broker/index.js";
import { type Config, configSchema } from "../src/config/index.js";
import { startSimulator } from "../src/simulator/index.js";
import type { FromChild, ToChild } from "./daemon-child.js";
import {
  epochMs,
  type Hit,
  mb,
  memoryOf,
  nextMessage,
  sleep,
  startCountingProxy,
  stopChild,
  transpileDaemon,
  verdict,
  watchDiscovery,
} from "./daemon-harness.js";

/**
 * The daemon's poll cadences are wall-clock. To see every cadence (the longest is 5 minutes)
 * a whole number of times within a few minutes, the daemon runs with each cadence divided by
 * SPEED against a simulator whose clock runs SPEED times faster, and counts are scaled back.
 */
const SPEED = 10;
/** Start-up burst (discovery, the background read of every control value) to leave out. */
const WARM_UP_MS = 30_000;
/** 20 simulated minutes: a whole number of the longest cadence, so each resource counts whole polls. */
const WINDOW_MS = 120_000;
const DISCOVERY_PREFIX = "homeassistant";
/** The live resources and the cadence each must keep; keyed by the client's endpoint names. */
const LIVE: Readonly<Record<string, keyof Config["poll"]>> = {
  "Get Latest System Data": "inverter",
  "Get Latest EMS Data": "ems",
  "Get EV Charger": "ev_charger",
};

function bareNodeRss(): number {
  const bare = spawnSync(process.execPath, ["--expose-gc", "-e", "gc(); console.log(process.memoryUsage().rss)"], {
    encoding: "utf8",
  });
  return Number(bare.stdout.trim());
}

function scaledPoll(): Record<string, string> {
  const defaults = configSchema.parse({}).poll;
  return Object.fromEntries(Object.entries(defaults).map(([key, ms]) => [key, `${ms / SPEED}ms`]));
}

/** Largest gap between consecutive reads of each live endpoint (per device), in simulated ms. */
function liveGaps(hits: readonly Hit[]): Map<string, number> {
  const last = new Map<string, number>();
  const gaps = new Map<string, number>();
  for (const hit of hits) {
    if (!(hit.endpoint in LIVE)) continue;
    const previous = last.get(hit.path);
    last.set(hit.path, hit.at);
    if (previous !== undefined)
      gaps.set(hit.endpoint, Math.max(gaps.get(hit.endpoint) ?? 0, (hit.at - previous) * SPEED));
  }
  return gaps;
}

interface Figures {
  readonly ready: Extract<FromChild, { type: "started" }>;
  /** When each discovery config topic first arrived. */
  readonly discovery: ReadonlyMap<string, number>;
  readonly afterStart: Extract<FromChild, { type: "memory" }>;
  readonly steady: Extract<FromChild, { type: "memory" }>;
  readonly hits: readonly Hit[];
  readonly windowStart: number;
  readonly windowEnd: number;
}

export async function daemonBenchmark(): Promise<void> {
  const simulator = await startSimulator({ port: 0, scenario: "demo", speed: SPEED, seed: 1 });
  const proxy = await startCountingProxy(simulator.url);
  const broker = await startEmbeddedBroker({ port: 0 });
  const discovery = await watchDiscovery(broker.url, DISCOVERY_PREFIX);
  const dir = mkdtempSync(join(tmpdir(), "e2m-bench-"));
  const child = fork(transpileDaemon(join(dir, "js")), [], { execArgv: ["--expose-gc"] });
  try {
    const started = nextMessage(child, "started");
    const config = {
      cloud: { url: proxy.url, token: simulator.tokens.owner },
      mqtt: { url: broker.url },
      homeassistant: { discovery_prefix: DISCOVERY_PREFIX },
      poll: scaledPoll(),
      store: { path: join(dir, "energy2mqtt.db") },
      // Pretty, as on a terminal and in the add-on: the costlier of the two formats.
      log: { level: "warn" as const, format: "pretty" as const },
    };
    child.send({ type: "start", config } satisfies ToChild);
    const ready = await started;
    const deadline = Date.now() + 30_000;
    while (ready.discoveryTopics.some((topic) => !discovery.firstSeen.has(topic)) && Date.now() < deadline)
      await sleep(10);
    await sleep(Math.max(0, ready.calledAt + WARM_UP_MS - epochMs()));
    const afterStart = await memoryOf(child);
    const windowStart = epochMs();
    await sleep(WINDOW_MS);
    const windowEnd = epochMs();
    const steady = await memoryOf(child);
    report({ ready, discovery: discovery.firstSeen, afterStart, steady, hits: proxy.hits, windowStart, windowEnd });
  } finally {
    await stopChild(child);
    await discovery.close();
    await broker.close();
    await proxy.close();
    await simulator.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function report(figures: Figures): void {
  const { ready, discovery, afterStart, steady, hits, windowStart, windowEnd } = figures;
  console.log(
    `daemon: demo house over a loopback proxy to the simulator; simulator clock ${SPEED}x and every poll cadence ÷${SPEED}, counts scaled back to simulated minutes`,
  );

  const expected = ready.discoveryTopics;
  const missing = expected.filter((topic) => !discovery.has(topic));
  const startMs = Math.max(...expected.flatMap((topic) => discovery.get(topic) ?? [])) - ready.calledAt;
  const lastMs = Math.max(...discovery.values()) - ready.calledAt;
  const lost = missing.length > 0 ? ` (${missing.length} never arrived: ${missing.slice(0, 3).join(", ")})` : "";
  console.log(
    `  start to all discovery: ${startMs.toFixed(0)} ms for the inventory's ${expected.length} configs${lost} (target < 2000: ${verdict(startMs < 2000 && missing.length === 0)}); startApp() resolved after ${(ready.resolvedAt - ready.calledAt).toFixed(0)} ms`,
  );
  console.log(
    `    with the entities learnt from first readings and control values: ${discovery.size} configs, the last ${lastMs.toFixed(0)} ms after start`,
  );

  const rssMb = afterStart.rssBytes / 1_048_576;
  console.log(
    `  resident memory after start-up: ${rssMb.toFixed(0)} MB, heap ${mb(afterStart.heapBytes)} MB (target < 80: ${verdict(rssMb < 80)}); after the steady window ${mb(steady.rssBytes)} MB`,
  );
  console.log(
    `    the daemon as transpiled JavaScript under plain node, as \`node dist/\` runs it: bare node takes ${mb(bareNodeRss())} MB, and ${mb(ready.loadedRssBytes)} MB once the daemon's modules are loaded`,
  );

  const inWindow = hits.filter((hit) => hit.at >= windowStart && hit.at < windowEnd);
  const minutes = ((windowEnd - windowStart) * SPEED) / 60_000;
  const perMinute = inWindow.length / minutes;
  const startup = hits.filter((hit) => hit.at < windowStart).length;
  console.log(
    `  API requests in steady state: ${perMinute.toFixed(2)} per minute over ${minutes.toFixed(0)} simulated minutes (target <= 5: ${verdict(perMinute <= 5)}); ${startup} at start-up before that`,
  );
  const byEndpoint = new Map<string, number>();
  for (const hit of inWindow) byEndpoint.set(hit.endpoint, (byEndpoint.get(hit.endpoint) ?? 0) + 1);
  const breakdown = [...byEndpoint]
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => `${name} ${(n / minutes).toFixed(2)}`);
  console.log(`    per minute by endpoint: ${breakdown.join(", ")}`);

  const poll = configSchema.parse({}).poll;
  const gaps = liveGaps(hits.filter((hit) => hit.at >= ready.calledAt + 5_000));
  const live = Object.entries(LIVE).map(([endpoint, key]) => {
    const interval = poll[key];
    const gap = gaps.get(endpoint) ?? Number.POSITIVE_INFINITY;
    // What delays a read (request time, a busy event loop) takes as long at any clock speed, so
    // it is judged in real time: at most 2 % of the poll interval late, as it would be at 1x.
    const lateMs = (gap - interval) / SPEED;
    return {
      text: `${endpoint} ${(gap / 1000).toFixed(0)} s (poll ${interval / 1000} s, ${Math.max(0, lateMs).toFixed(0)} ms late)`,
      ok: lateMs <= interval * 0.02,
    };
  });
  console.log(
    `  live values, longest gap between reads, in simulated time: ${live.map((l) => l.text).join(", ")} (a read at most 2 % of its interval late in real time: ${verdict(live.every((l) => l.ok))})`,
  );
}
