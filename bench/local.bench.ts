import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { readCapture } from "../src/local/capture.js";
import { BusDecoder } from "../src/local/decode.js";
import { localSource } from "../src/sources/index.js";
import type { Resource } from "../src/sources/resource.js";
import { systemClock } from "../src/time/clock.js";
import { startSimulatorChild } from "./daemon-harness.js";

const CAPTURES = "test/fixtures/local-captures";
const LIVE_MS = 10_000;
const CYCLES = 3;

function captureFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return captureFiles(path);
    return /\.(txt|log|hex|csv|jsonl?)$/i.test(name) && !/readme|licen[cs]e/i.test(name) ? [path] : [];
  });
}

/** Every capture read (framer, CRC, parse) and decoded (register banks, guards, devices), repeated for a second or more. */
function decodeThroughput(): { files: number; frames: number; perSecond: number } {
  const texts = captureFiles(CAPTURES).map((file) => readFileSync(file, "utf8"));
  const once = (): number => {
    let frames = 0;
    for (const text of texts) {
      const capture = readCapture(text);
      frames += capture.frames.length;
      new BusDecoder().acceptAll(capture.frames).devices();
    }
    return frames;
  };
  const perPass = once();
  let frames = 0;
  const started = performance.now();
  while (performance.now() - started < 1_500) frames += once();
  return { files: texts.length, frames: perPass, perSecond: frames / ((performance.now() - started) / 1000) };
}

interface PollFigures {
  readonly dongles: number;
  readonly cpuMsPerCycle: number;
  readonly latencyMs: { readonly mean: number; readonly max: number };
  readonly freshness: { readonly mean: number; readonly max: number };
  readonly rssMb: number;
}

/**
 * The live resources of `dongles` simulated dongles polled every 10 s on the system clock, as the
 * daemon's telemetry would: CPU time of this process (the simulator runs in its own) per cycle,
 * each poll's latency, and how old a shown value is (latency plus the time since its poll).
 */
async function pollCycles(ports: readonly number[], cycles = CYCLES): Promise<PollFigures> {
  const source = localSource({
    dongles: ports.map((port) => ({ host: "127.0.0.1", port, passive: false })),
    clock: systemClock,
    timezone: "UTC",
    liveMs: LIVE_MS,
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
      .filter((resource) => resource.periodMs === LIVE_MS);
    // One round unmeasured: the first poll pays for compiling the code paths.
    await Promise.all(live.map((resource) => resource.poll(new AbortController().signal)));
    const latencies: number[] = [];
    const cpu = process.cpuUsage();
    for (let cycle = 0; cycle < cycles; cycle++) {
      const started = performance.now();
      await Promise.all(
        live.map(async (resource) => {
          const at = performance.now();
          const result = await resource.poll(new AbortController().signal);
          if (!result.fetched) throw new Error(`${resource.name}: nothing fetched`);
          latencies.push(performance.now() - at);
        }),
      );
      const rest = LIVE_MS - (performance.now() - started);
      if (cycle < cycles - 1 && rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
    }
    const used = process.cpuUsage(cpu);
    const mean = latencies.reduce((a, b) => a + b, 0) / latencies.length;
    const max = Math.max(...latencies);
    return {
      dongles: ports.length,
      cpuMsPerCycle: (used.user + used.system) / 1000 / cycles,
      latencyMs: { mean, max },
      // A value is `latency` old when it arrives and is shown until the next one, LIVE_MS later.
      freshness: { mean: mean + LIVE_MS / 2, max: max + LIVE_MS },
      rssMb: process.memoryUsage().rss / 1e6,
    };
  } finally {
    source.close();
  }
}

export async function localBenchmark(): Promise<void> {
  const decode = decodeThroughput();
  console.log(
    `local: decode of ${decode.files} captures (${decode.frames} frames a pass): framer, CRC, parse, banks, devices`,
  );
  console.log(`  ${decode.perSecond.toFixed(0)} frames/s`);

  const { child, ready } = await startSimulatorChild("demo", { local: true });
  try {
    const hybrid = ready.dongles.find((dongle) => dongle.deviceSerial === "SD2024G001");
    if (!hybrid) throw new Error("the demo house has no dongle for SD2024G001");
    const all = ready.dongles.map((dongle) => dongle.port);
    // A first run unmeasured, so that neither row pays for compiling the code paths.
    await pollCycles(all, 1);
    const rows = [await pollCycles([hybrid.port]), await pollCycles(all)];
    console.log(
      `local: live polls every ${LIVE_MS / 1000} s against the simulator's dongles (150 ms answers), ${CYCLES} cycles`,
    );
    console.log(
      "  | dongles | CPU ms / cycle | poll latency mean / max (ms) | value age mean / max (s) | bench process RSS (MB, tsx included) |",
    );
    console.log("  |---|---|---|---|---|");
    for (const row of rows)
      console.log(
        `  | ${row.dongles} | ${row.cpuMsPerCycle.toFixed(1)} | ${row.latencyMs.mean.toFixed(0)} / ${row.latencyMs.max.toFixed(0)} | ${(row.freshness.mean / 1000).toFixed(1)} / ${(row.freshness.max / 1000).toFixed(1)} | ${row.rssMb.toFixed(0)} |`,
      );
  } finally {
    child.disconnect();
  }
}
