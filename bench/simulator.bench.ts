import { Agent, request } from "undici";
import { startSimulatorChild } from "./daemon-harness.js";

export async function simulatorBenchmark(): Promise<void> {
  const REQUESTS = 20_000;
  const CONCURRENCY = 32;
  const { child, ready } = await startSimulatorChild("demo");
  const dispatcher = new Agent({ connections: CONCURRENCY });
  try {
    const path = `${ready.url}/inverter/SD2024G001/system-data/latest`;
    const headers = {
      authorization: `Bearer ${ready.token}`,
      accept: "application/json",
      "content-type": "application/json",
    };
    const once = async () => {
      const response = await request(path, { dispatcher, headers });
      await response.body.text();
      if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}`);
    };
    for (let i = 0; i < 2000; i++) await once();
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < REQUESTS) {
          next++;
          await once();
        }
      }),
    );
    const perSecond = REQUESTS / ((performance.now() - started) / 1000);
    console.log(`simulator: ${REQUESTS} GET system-data/latest over loopback, ${CONCURRENCY} in flight`);
    console.log(`  ${perSecond.toFixed(0)} req/s (target >= 5000: ${perSecond >= 5000 ? "met" : "MISSED"})`);
  } finally {
    await dispatcher.close();
    child.disconnect();
  }

  const fleet = await startSimulatorChild("fleet:1000");
  const rssMb = fleet.ready.rssBytes / 1_048_576;
  console.log("simulator: fleet:1000 start-up");
  console.log(
    `  ${fleet.ready.startupMs.toFixed(0)} ms to ready (target < 5000: ${fleet.ready.startupMs < 5000 ? "met" : "MISSED"}), ` +
      `${rssMb.toFixed(0)} MB resident (target < 300: ${rssMb < 300 ? "met" : "MISSED"}), heap ${(fleet.ready.heapBytes / 1_048_576).toFixed(0)} MB`,
  );
  fleet.child.disconnect();
}
