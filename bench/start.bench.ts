import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEMO_HISTORY_DAYS } from "../src/demo/store.js";
import { demoHouseScenario, World } from "../src/simulator/index.js";
import { loadScenario } from "../src/simulator/scenario/load.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(ROOT, "bin", "energy2mqtt.js");
const RUNS = 3;
const BANNER = "is running with";
/** Linux's clock ticks per second for /proc/PID/stat's CPU times. */
const TICKS_PER_S = 100;

interface Start {
  readonly wallMs: number;
  /** User and system CPU of the daemon until the banner; undefined where /proc is missing. */
  readonly cpuMs: number | undefined;
}

function cpuMsOf(pid: number): number | undefined {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return undefined;
  // The fields after the command's name (which may hold spaces) start at the state, field 3.
  const fields = readFileSync(stat, "utf8").split(") ")[1]?.split(" ") ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S;
}

/** `npm start`'s daemon on the embedded defaults in `dir`, from spawn to the banner on stdout. */
async function timeToBanner(dir: string): Promise<Start> {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith("ENERGY2MQTT_")) env[name] = value;
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, "run"], { cwd: dir, env, stdio: ["ignore", "pipe", "ignore"] });
  let out = "";
  const result = await new Promise<Start>((resolve, reject) => {
    child.stdout.on("data", (chunk) => {
      out += String(chunk);
      if (out.includes(BANNER) && child.pid !== undefined)
        resolve({ wallMs: performance.now() - started, cpuMs: cpuMsOf(child.pid) });
    });
    child.once("exit", (code) => reject(new Error(`the daemon exited (${code}) before its banner`)));
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGINT");
  await exited;
  return result;
}

const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

function line(label: string, starts: readonly Start[]): string {
  const wall = starts.map((s) => s.wallMs);
  const cpu = starts.flatMap((s) => (s.cpuMs === undefined ? [] : [s.cpuMs]));
  const cpuText = cpu.length > 0 ? `, CPU median ${median(cpu).toFixed(0)} ms` : "";
  return `start ${label}: banner after median ${median(wall).toFixed(0)} ms (${wall.map((ms) => ms.toFixed(0)).join(", ")} ms)${cpuText}`;
}

/** The first answer's work in the simulator: every inverter integrated from its commissioning to `start`. */
function simulatorFirstAnswerMs(world: World, start: number): number {
  const began = performance.now();
  for (const inverter of world.inverters.values()) inverter.model.advanceTo(start);
  return performance.now() - began;
}

/**
 * `npm start` on the embedded defaults (the demo house, the embedded broker, the demo's rules):
 * time from spawn to the banner, on an empty folder (the first start) and again with the demo's
 * store in it, with the daemon's own CPU time (a loaded machine stretches the wall time, not the
 * CPU); then the cause of the old wait, the simulator's history before its first answer.
 */
export async function startBenchmark(): Promise<void> {
  const build = spawnSync(process.execPath, [join(ROOT, "scripts", "build-if-stale.mjs")], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (build.status !== 0) throw new Error("the build failed");
  const first: Start[] = [];
  const again: Start[] = [];
  for (let run = 0; run < RUNS; run++) {
    const dir = mkdtempSync(join(tmpdir(), "e2m-startbench-"));
    try {
      first.push(await timeToBanner(dir));
      again.push(await timeToBanner(dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log(line("on an empty folder (the demo's first start)", first));
  console.log(line("again with the demo's store", again));

  const now = Date.now();
  const builtin = simulatorFirstAnswerMs(new World(loadScenario("demo"), 1, now), now);
  const demo = simulatorFirstAnswerMs(new World(demoHouseScenario(now, DEMO_HISTORY_DAYS), 1, now), now);
  console.log(
    `start simulator's first answer (in this process, optimising compiler on; the daemon runs without it): the built-in demo from its 2024 commissioning ${builtin.toFixed(0)} ms, the daemon's demo house (${DEMO_HISTORY_DAYS} days of history) ${demo.toFixed(0)} ms`,
  );
}
