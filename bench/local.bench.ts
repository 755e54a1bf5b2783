import { fork } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readCapture } from "../src/local/capture.js";
import { ChainDecoder } from "../src/local/decode.js";
import { startSimulatorChild, transpileDaemon } from "./daemon-harness.js";
import type { FromLocalChild, LocalRun } from "./local-child.js";

const CAPTURES = "test/fixtures/local-captures";
const LIVE_MS = 10_000;
const INTERVAL_MS = 1_000;
const CYCLES = 40;
const WARMUP = 15;

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
      new ChainDecoder().acceptAll(capture.frames).devices();
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
  readonly cycles: number;
  readonly cpuMsPerCycle: number;
  /** Mean CPU ms per cycle in the first and the second half of the run: close when it has settled. */
  readonly cpuHalvesMs: readonly [number, number];
  readonly latencyMs: { readonly mean: number; readonly max: number };
  readonly freshness: { readonly mean: number; readonly max: number };
  readonly rssMb: number;
  readonly maxRssMb: number;
  readonly heapMb: number;
}

/**
 * The daemon's LAN read path (local-child.ts, transpiled, under plain node: no TypeScript loader
 * in its memory) polling the live resources of the given simulated dongles `cycles` times, a
 * cycle every `INTERVAL_MS` (sped up from the daemon's 10 s so that enough cycles fit): the
 * child's own CPU time per cycle and resident memory, each poll's latency, and how old a shown
 * value is at 10 s polling (latency plus the time since its poll).
 */
function halves(cycleCpuUs: readonly number[]): [number, number] {
  const middle = Math.floor(cycleCpuUs.length / 2);
  const meanMs = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length / 1000;
  return [meanMs(cycleCpuUs.slice(0, middle)), meanMs(cycleCpuUs.slice(middle))];
}

async function pollCycles(script: string, ports: readonly number[], cycles: number): Promise<PollFigures> {
  const child = fork(script, [], { execArgv: ["--expose-gc"] });
  try {
    const done = new Promise<Extract<FromLocalChild, { type: "done" }>>((resolve, reject) => {
      child.once("message", (message: FromLocalChild) => {
        if (message.type === "done") resolve(message);
        else reject(new Error(`local child: ${message.message}`));
      });
      child.once("exit", (code) => reject(new Error(`local child exited with ${code}`)));
    });
    child.send({
      type: "run",
      ports,
      cycles,
      warmup: WARMUP,
      intervalMs: INTERVAL_MS,
      liveMs: LIVE_MS,
    } satisfies LocalRun);
    const result = await done;
    const latencies = result.latenciesMs;
    const mean = latencies.reduce((a, b) => a + b, 0) / latencies.length;
    const max = Math.max(...latencies);
    return {
      dongles: ports.length,
      cycles,
      cpuMsPerCycle: (result.userUs + result.systemUs) / 1000 / cycles,
      cpuHalvesMs: halves(result.cycleCpuUs),
      latencyMs: { mean, max },
      // A value is `latency` old when it arrives and is shown until the next one, LIVE_MS later.
      freshness: { mean: mean + LIVE_MS / 2, max: max + LIVE_MS },
      rssMb: result.rssBytes / 1e6,
      maxRssMb: result.maxRssBytes / 1e6,
      heapMb: result.heapBytes / 1e6,
    };
  } finally {
    if (child.connected) child.disconnect();
  }
}

export async function localBenchmark(): Promise<void> {
  const decode = decodeThroughput();
  console.log(
    `local: decode of ${decode.files} captures (${decode.frames} frames a pass): framer, CRC, parse, banks, devices`,
  );
  console.log(`  ${decode.perSecond.toFixed(0)} frames/s`);

  const { child, ready } = await startSimulatorChild("demo", { local: true });
  const dir = mkdtempSync(join(tmpdir(), "e2m-bench-local-"));
  try {
    const script = transpileDaemon(join(dir, "js"), "local-child.ts");
    const hybrid = ready.dongles.find((dongle) => dongle.deviceSerial === "SD2024G001");
    if (!hybrid) throw new Error("the demo house has no dongle for SD2024G001");
    const all = ready.dongles.map((dongle) => dongle.port);
    const rows = [await pollCycles(script, [hybrid.port], CYCLES), await pollCycles(script, all, CYCLES)];
    console.log(
      `local: the LAN read path in its own process (plain node), live polls of the simulator's dongles (150 ms answers), ${CYCLES} cycles a cycle every ${INTERVAL_MS / 1000} s or back to back, after ${WARMUP} unmeasured`,
    );
    console.log(
      "  | dongles | CPU ms / cycle (1st / 2nd half) | poll latency mean / max (ms) | value age at 10 s polling mean / max (s) | RSS / max RSS (MB) | heap (MB) |",
    );
    console.log("  |---|---|---|---|---|---|");
    for (const row of rows)
      console.log(
        `  | ${row.dongles} | ${row.cpuMsPerCycle.toFixed(1)} (${row.cpuHalvesMs[0].toFixed(1)} / ${row.cpuHalvesMs[1].toFixed(1)}) | ${row.latencyMs.mean.toFixed(0)} / ${row.latencyMs.max.toFixed(0)} | ${(row.freshness.mean / 1000).toFixed(1)} / ${(row.freshness.max / 1000).toFixed(1)} | ${row.rssMb.toFixed(0)} / ${row.maxRssMb.toFixed(0)} | ${row.heapMb.toFixed(1)} |`,
      );
  } finally {
    child.disconnect();
    rmSync(dir, { recursive: true, force: true });
  }
}
