import { CloudClient } from "../../src/cloud/client.js";
import type { CloudClientOptions } from "../../src/cloud/http.js";
import { RateBudget, RateBudgetRegistry } from "../../src/cloud/rate-budget.js";
import { type RunningSimulator, type SimulatorOptions, startSimulator } from "../../src/simulator/index.js";
import { fleetScenario } from "../../src/simulator/scenario/builtin.js";
import { type Scenario, scenarioSchema } from "../../src/simulator/scenario/schema.js";

/**
 * Instants a test pins the simulated house to, in the house's own zone (Europe/London, the demo
 * account's; GMT in November): no test may depend on when, or in which zone, it runs. A test that needs sunshine
 * says so by starting at MIDDAY; one that needs the dark, at NIGHT.
 */
export const MIDDAY = Date.parse("2026-11-16T12:00:00Z");
export const NIGHT = Date.parse("2026-11-16T02:00:00Z");
/** Where the simulated clock starts when a test states no instant of its own. */
export const TEST_START = MIDDAY;
/**
 * The gap between frames (config `gap_ms`) for the simulator's and the replayed captures' dongles:
 * they answer every frame however fast it comes, so the 250 ms a real dongle needs would only
 * make the tests wait.
 */
export const SIM_GAP_MS = 20;

/**
 * The simulator on 127.0.0.1 and a free port, with a client per actor on demand. Its clock starts
 * at `options.start`, or at TEST_START: never at the wall clock. A daemon under test reads the
 * same clock (`simulator.clock`), so both agree on what time it is.
 */
export async function startTestSimulator(options: SimulatorOptions = {}) {
  const simulator: RunningSimulator = await startSimulator({ port: 0, seed: 7, start: TEST_START, ...options });
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

const DAY_MS = 86_400_000;

/**
 * fleet:N with every inverter commissioned `days` before `start`. The simulator integrates an
 * inverter's history from its commissioning the first time it is asked about it; for the
 * built-in fleet (commissioned through 2025) that is a year or more per inverter, minutes of
 * work for the first device listing of a large fleet, which a client would see as a cloud that
 * does not answer.
 */
export function recentFleetScenario(size: number, start: number, days = 3): Scenario {
  const input = fleetScenario(size);
  const commission_date = new Date(start - days * DAY_MS).toISOString().slice(0, 10);
  return scenarioSchema.parse({
    ...input,
    accounts: input.accounts.map((account) => ({
      ...account,
      devices: account.devices?.map((device) => ({
        ...device,
        ...(device.inverter ? { inverter: { ...device.inverter, commission_date } } : {}),
      })),
    })),
  });
}
