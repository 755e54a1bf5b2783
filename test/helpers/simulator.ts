import { CloudClient } from "../../src/cloud/client.js";
import type { CloudClientOptions } from "../../src/cloud/http.js";
import { RateBudget, RateBudgetRegistry } from "../../src/cloud/rate-budget.js";
import { type RunningSimulator, type SimulatorOptions, startSimulator } from "../../src/simulator/index.js";

/** The simulator on 127.0.0.1 and a free port, with a client per actor on demand. */
export async function startTestSimulator(options: SimulatorOptions = {}) {
  const simulator: RunningSimulator = await startSimulator({ port: 0, seed: 7, ...options });
  const budgets = new RateBudgetRegistry();
  const clientFor = (actor: string, extra: Partial<CloudClientOptions> = {}): CloudClient => {
    const token = simulator.tokens[actor];
    if (!token)
      throw new Error(`no actor "${actor}" in the scenario (have ${Object.keys(simulator.tokens).join(", ")})`);
    return new CloudClient({
      baseUrl: simulator.url,
      token,
      budgets,
      budget: new RateBudget({ limit: 100_000, windowMs: 60_000 }),
      retry: { baseDelayMs: 1, maxDelayMs: 5 },
      ...extra,
    });
  };
  const admin = async (path: string, body?: unknown, method = "POST"): Promise<unknown> => {
    const response = await fetch(`${simulator.url.replace(/\/v1$/, "")}/__admin${path}`, {
      method,
      headers: { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`admin ${path}: HTTP ${response.status} ${await response.text()}`);
    return response.json();
  };
  return { simulator, clientFor, admin, stop: () => simulator.stop() };
}
