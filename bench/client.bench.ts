import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Agent, request } from "undici";
import { CloudClient } from "../src/cloud/client.js";
import { RateBudget } from "../src/cloud/rate-budget.js";

const REQUESTS = 20_000;
const CONCURRENCY = 32;

interface Measure {
  readonly perSecond: number;
  /** CPU time of this process per request, microseconds. */
  readonly cpuMicros: number;
}

async function measure(send: () => Promise<unknown>, count: number): Promise<Measure> {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        next++;
        await send();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { perSecond: count / seconds, cpuMicros: (used.user + used.system) / count };
}

export async function clientBenchmark(): Promise<void> {
  const server = fork(fileURLToPath(new URL("./loopback-server.ts", import.meta.url)), [], {
    execArgv: ["--import", "tsx"],
  });
  const port = await new Promise<number>((resolve) => server.once("message", (m: { port: number }) => resolve(m.port)));
  const base = `http://127.0.0.1:${port}`;
  const dispatcher = new Agent({ connections: CONCURRENCY, pipelining: 1 });
  try {
    const raw = async () => {
      const response = await request(`${base}/v1/account`, {
        dispatcher,
        headers: { authorization: "Bearer x", accept: "application/json", "content-type": "application/json" },
      });
      return JSON.parse(await response.body.text());
    };
    // The client's own transport (node:http with keep-alive), as the daemon runs it.
    const client = new CloudClient({
      baseUrl: `${base}/v1`,
      token: "bench-token",
      budget: new RateBudget({ limit: 1_000_000_000, windowMs: 60_000 }),
    });
    const viaClient = () => client.account.get();

    await measure(raw, 2_000);
    await measure(viaClient, 2_000);
    const baseline = await measure(raw, REQUESTS);
    const full = await measure(viaClient, REQUESTS);
    const overheadMs = (full.cpuMicros - baseline.cpuMicros) / 1000;
    console.log(`client: ${REQUESTS} GET /account over loopback, ${CONCURRENCY} in flight`);
    console.log(
      `  raw undici:    ${baseline.perSecond.toFixed(0)} req/s, ${baseline.cpuMicros.toFixed(1)} µs CPU/request`,
    );
    console.log(`  CloudClient:   ${full.perSecond.toFixed(0)} req/s, ${full.cpuMicros.toFixed(1)} µs CPU/request`);
    console.log(`  client overhead: ${overheadMs.toFixed(3)} ms CPU per request (budget, headers, zod, errors)`);
    console.log(
      `  targets: >= 5000 req/s ${full.perSecond >= 5000 ? "met" : "MISSED"}; < 0.2 ms overhead ${overheadMs < 0.2 ? "met" : "MISSED"}`,
    );
  } finally {
    await dispatcher.close();
    server.kill();
  }
}
