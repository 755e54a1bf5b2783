// A day of Predbat's half-hourly REST cycle against the demo house: what it costs in writes
// against the daily write budget, and that a value that already holds is never written.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startApp } from "../src/app/index.js";
import { configSchema } from "../src/config/index.js";
import { createLogger } from "../src/log/log.js";
import { startSimulator } from "../src/simulator/index.js";
import { openStore } from "../src/store/index.js";
import { startCountingProxy } from "./daemon-harness.js";

const SERIAL = "SD2024G001";
/** Midnight in the demo house's zone (Europe/London, GMT in November): the 48 cycles are one local day. */
const DAY_START = Date.parse("2026-11-16T00:00:00Z");
const HALF_HOUR_MS = 30 * 60_000;
const CYCLES = 48;

type Call = readonly [endpoint: string, body: Readonly<Record<string, unknown>>];

const hhmm = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/**
 * What a Predbat-like plan re-sends in the cycle starting `minutes` after midnight: the night's
 * charge window and target, the evening's export window, the reserve and rates, and the mode
 * (Timed Export inside the export window, Eco outside). Most cycles send the same values again.
 */
function cycleCalls(minutes: number): Call[] {
  const exporting = minutes >= 17 * 60 && minutes < 18 * 60;
  // The charge target is raised once in the afternoon, as a re-plan would.
  const target = minutes < 15 * 60 ? 90 : 100;
  return [
    ["setChargeSlot1", { start: hhmm(90), finish: hhmm(270) }],
    ["setChargeTarget", { chargeToPercent: target }],
    ["enableChargeSchedule", { state: "enable" }],
    ["setBatteryReserve", { reservePercent: 10 }],
    ["setChargeRate", { chargeRate: 2600 }],
    ["setDischargeRate", { dischargeRate: 2600 }],
    ["setDischargeSlot1", { start: "17:00", finish: "18:00" }],
    ["setBatteryMode", { mode: exporting ? "Timed Export" : "Eco" }],
  ];
}

const isWrite = (path: string, endpoint: string): boolean =>
  /\/(presets\/[^/]+|settings\/\d+\/write)$/.test(path) && !/read/i.test(endpoint) && !/values/i.test(endpoint);

export async function givtcpDayBenchmark(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "e2m-givtcp-day-"));
  const sim = await startSimulator({ port: 0, seed: 7, start: DAY_START, speed: 0, requestsPerMinute: 100_000 });
  const proxy = await startCountingProxy(sim.url);
  const storePath = join(dir, "e2m.db");
  const config = configSchema.parse({
    cloud: { url: proxy.url, token: sim.tokens.owner, requests_per_minute: 10_000 },
    store: { path: storePath },
    web: { enabled: false },
    homeassistant: { discovery_prefix: "bench-givtcp-ha", status_topic: "bench-givtcp-ha/status" },
    mqtt: { base_topic: "bench-givtcp" },
    givtcp_rest: { port: 0 },
    log: { level: "silent" },
  });
  const app = await startApp(config, createLogger("silent"), "0.0.0-bench", { clock: sim.clock });
  const rest = app.givtcpRestUrls?.[SERIAL];
  if (!rest) throw new Error(`no GivTCP REST port for ${SERIAL}`);
  const get = async (path: string): Promise<void> => {
    const response = await fetch(`${rest}/${path}`);
    if (response.status !== 200) throw new Error(`GET ${path}: HTTP ${response.status}`);
    await response.json();
  };
  let calls = 0;
  let failures = 0;
  const writesAt = (): number => proxy.hits.filter((hit) => isWrite(hit.path, hit.endpoint)).length;
  const perCycle: number[] = [];
  const started = performance.now();
  try {
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const before = writesAt();
      await get("readData");
      for (const [endpoint, body] of cycleCalls(cycle * 30)) {
        const response = await fetch(`${rest}/${endpoint}`, { method: "POST", body: JSON.stringify(body) });
        const answer = (await response.json()) as { result: string };
        calls += 1;
        if (!answer.result.endsWith("was a success")) failures += 1;
        // Predbat reads runAll after each write to check it.
        await get("runAll");
      }
      perCycle.push(writesAt() - before);
      if (cycle < CYCLES - 1) sim.clock.advance(HALF_HOUR_MS);
    }
  } finally {
    await app.stop();
    await proxy.close();
    await sim.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  const store = openStore(storePath);
  const audit = store.audit.recent({ limit: 10_000 }).filter((entry) => entry.source === "givtcp-rest");
  const counted = store.writeCounts.day("2026-11-16").find((count) => count.serial === SERIAL);
  store.close();
  rmSync(dir, { recursive: true, force: true });
  const skipped = audit.filter((entry) => entry.skipped).length;
  const applied = audit.filter((entry) => entry.ok && !entry.skipped).length;
  // A change the gate skipped must have sent nothing: the writes the cloud saw are the applied ones.
  const writes = perCycle.reduce((sum, count) => sum + count, 0);
  console.log("\n[givtcp-day] a day of Predbat's half-hourly REST cycle on the demo house (cloud path, virtual clock)");
  console.log(
    `  cycles: ${CYCLES}; REST writes called: ${calls} (each followed by runAll); not a success: ${failures}`,
  );
  console.log(
    `  change requests to the gate: ${audit.length}; applied: ${applied}; skipped (value already held): ${skipped}`,
  );
  console.log(`  write requests the cloud received: ${writes}; per cycle: ${perCycle.join(" ")}`);
  console.log(
    `  write budget used: ${counted?.writes ?? 0} of ${config.control.write_budget} values today (${(((counted?.writes ?? 0) / config.control.write_budget) * 100).toFixed(1)}%)`,
  );
  console.log(
    `  a value that already held was written: ${writes === applied ? "never" : `${writes - applied} times`} (writes sent ${writes} = changes applied ${applied})`,
  );
  console.log(`  took ${seconds.toFixed(1)} s`);
}
