// What the daemon benchmarks share: the daemon in a child process as plain JavaScript, a counting
// proxy in front of the simulator, and a watcher of the discovery configs on the broker.
import { type ChildProcess, fork } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { Agent, createServer, request } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import mqtt from "mqtt";
import ts from "typescript";
import { findEndpoint, type HttpMethod } from "../src/cloud/index.js";
import type { FromChild, ToChild } from "./daemon-child.js";

export interface Hit {
  /** Epoch ms when the request arrived. */
  readonly at: number;
  readonly endpoint: string;
  readonly path: string;
}

export const epochMs = (): number => performance.timeOrigin + performance.now();
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const mb = (bytes: number): string => (bytes / 1_048_576).toFixed(0);
export const verdict = (ok: boolean): string => (ok ? "met" : "MISSED");

/** A loopback proxy in front of the simulator that records every request the daemon makes and each answer's status. */
export async function startCountingProxy(target: string) {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const hits: Hit[] = [];
  const statuses = new Map<number, number>();
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const endpoint = findEndpoint((req.method ?? "GET") as HttpMethod, path.replace(/^\/v1(?=\/)/, ""));
    hits.push({ at: epochMs(), endpoint: endpoint?.name ?? `${req.method} ${path}`, path });
    const forward = request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers, agent },
      (answer) => {
        const status = answer.statusCode ?? 502;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        res.writeHead(status, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    hits,
    statuses,
    close: () => {
      agent.destroy();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Every discovery config topic with the time it first arrived. */
export async function watchDiscovery(url: string, prefix: string) {
  const client = await mqtt.connectAsync(url, {
    clientId: `bench_${process.pid}_${Math.random().toString(16).slice(2)}`,
  });
  const firstSeen = new Map<string, number>();
  client.on("message", (topic, payload) => {
    if (topic.endsWith("/config") && payload.length > 0 && !firstSeen.has(topic)) firstSeen.set(topic, epochMs());
  });
  await client.subscribeAsync(`${prefix}/#`, { qos: 1 });
  return { firstSeen, close: () => client.endAsync() };
}

export function nextMessage<T extends FromChild["type"]>(
  child: ChildProcess,
  type: T,
): Promise<Extract<FromChild, { type: T }>> {
  return new Promise((resolve, reject) => {
    const settle = (outcome: () => void) => {
      child.off("message", onMessage);
      child.off("exit", onExit);
      outcome();
    };
    const onMessage = (message: FromChild) => {
      if (message.type === "failed") settle(() => reject(new Error(`daemon child: ${message.message}`)));
      else if (message.type === type) settle(() => resolve(message as Extract<FromChild, { type: T }>));
    };
    const onExit = (code: number | null) => settle(() => reject(new Error(`daemon child exited with ${code}`)));
    child.on("message", onMessage);
    child.on("exit", onExit);
  });
}

export function memoryOf(child: ChildProcess, gc = true): Promise<Extract<FromChild, { type: "memory" }>> {
  const reply = nextMessage(child, "memory");
  child.send({ type: "memory", gc } satisfies ToChild);
  return reply;
}

/** Asks the daemon to stop, gives it a few seconds, and lets the child go. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (!child.connected) return;
  child.send({ type: "stop" } satisfies ToChild);
  await Promise.race([nextMessage(child, "stopped").catch(() => undefined), sleep(3000)]);
  if (child.connected) child.disconnect();
}

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * src and a child (bench/daemon-child.ts unless named) as plain JavaScript in a temporary folder, so that the daemon's process
 * holds no TypeScript loader (tsx adds a loader thread of about 40 MB and every file's source map).
 */
export function transpileDaemon(out: string, child = "daemon-child.ts"): string {
  cpSync(join(ROOT, "src"), join(out, "src"), { recursive: true });
  const sources = readdirSync(join(out, "src"), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .map((file) => join(out, "src", file));
  mkdirSync(join(out, "bench"));
  cpSync(join(ROOT, "bench", child), join(out, "bench", child));
  for (const file of [...sources, join(out, "bench", child)]) {
    const { outputText } = ts.transpileModule(readFileSync(file, "utf8"), {
      fileName: file,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    });
    writeFileSync(file.replace(/\.ts$/, ".js"), outputText);
  }
  writeFileSync(join(out, "package.json"), JSON.stringify({ type: "module" }));
  symlinkSync(join(ROOT, "node_modules"), join(out, "node_modules"), "dir");
  return join(out, "bench", child.replace(/\.ts$/, ".js"));
}

export interface SimulatorReady {
  readonly url: string;
  readonly token: string;
  /** The dongles, when started with `local`. */
  readonly dongles: readonly { readonly deviceSerial: string; readonly port: number }[];
  readonly startupMs: number;
  readonly rssBytes: number;
  readonly heapBytes: number;
}

/** The simulator in a process of its own (see simulator-child.ts), so its work is not the bench's. */
export async function startSimulatorChild(
  scenario: string,
  options: {
    readonly speed?: number;
    readonly requestsPerMinute?: number;
    readonly recentFleet?: boolean;
    readonly local?: boolean;
  } = {},
) {
  const { speed = 1, requestsPerMinute = 100_000_000, recentFleet = false, local = false } = options;
  const child = fork(
    fileURLToPath(new URL("./simulator-child.ts", import.meta.url)),
    [scenario, String(speed), String(requestsPerMinute), recentFleet ? "recent" : "", ...(local ? ["local"] : [])],
    { execArgv: ["--import", "tsx", "--expose-gc"] },
  );
  const ready = await new Promise<SimulatorReady>((resolve, reject) => {
    child.once("message", (message) => resolve(message as SimulatorReady));
    child.once("exit", (code) => reject(new Error(`simulator child exited with ${code}`)));
  });
  return { child, ready };
}
