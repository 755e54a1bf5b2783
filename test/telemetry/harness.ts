import { setImmediate as turn } from "node:timers/promises";
import type { Subscription } from "rxjs";
import type { CloudClient } from "../../src/cloud/client.js";
import type { CloudClientOptions, RequestEvent } from "../../src/cloud/http.js";
import { RateBudget } from "../../src/cloud/rate-budget.js";
import { fetchedRecords } from "../../src/history/index.js";
import type { Logger } from "../../src/log/log.js";
import type { SimulatorOptions } from "../../src/simulator/index.js";
import {
  cloudSource,
  discoverInventory,
  type Fetched,
  type Inventory,
  type PollConfig,
} from "../../src/sources/index.js";
import type { HistoryRecord } from "../../src/store/index.js";
import {
  type Availability,
  type DeviceState,
  StateChanges,
  startTelemetry,
  type Telemetry,
} from "../../src/telemetry/index.js";

/** What the daemon's consumers see: the states that changed, and availability verdicts. */
export type Reading = DeviceState | Availability;

import { startTestSimulator } from "../helpers/simulator.js";

/** A June morning, so the sun moves the numbers. */
export const START = Date.UTC(2025, 5, 18, 9, 0, 0);

import { DEFAULT_POLL } from "../helpers/poll.js";

export { DEFAULT_POLL };

export const HOUSE = "SD2024G001";
export const EMS = "EM2024E001";
export const CHARGER = "6b1f0c8e-2f51-4c1b-9d3a-5e7c2a9b0d11";
export const SMART = "9d7e4c2a-1b3f-4e5d-8a6c-0f1e2d3c4b5a";

/** Counts the client's calls in flight, so a test can wait until every poll has its answer. */
function trackInflight(client: CloudClient): () => number {
  let inflight = 0;
  const http = client.http;
  const call = http.call.bind(http);
  http.call = (endpoint, input, schema, options) => {
    inflight++;
    return call(endpoint, input, schema, options).finally(() => inflight--);
  };
  return () => inflight;
}

/**
 * The demo simulator on a manual clock, which is also the poll timers' and the rate budget's
 * clock: `advance` runs each due timer at its own simulated instant and waits for the
 * requests it starts before going on.
 */
export interface HarnessOptions {
  /** The demo house by default. */
  readonly scenario?: SimulatorOptions["scenario"];
  /**
   * The client's budget, a minute's window on the virtual clock, so that requests wait for
   * their slot in simulated time; left out, a budget too large to matter.
   */
  readonly requestsPerMinute?: number;
  /** Further client options, e.g. a proxy's base URL. */
  readonly client?: Partial<CloudClientOptions>;
}

export async function startHarness(actor = "owner", options: HarnessOptions = {}) {
  // Simulated hours pass in a wall-clock second: the server's per-minute limit (which the
  // client's budget learns from its headers) would otherwise stall the test.
  const sim = await startTestSimulator({
    speed: 0,
    start: START,
    requestsPerMinute: 1_000_000,
    ...(options.scenario ? { scenario: options.scenario } : {}),
  });
  const requests: RequestEvent[] = [];
  const clock = sim.simulator.clock;
  const now = () => clock.now();
  const budget =
    options.requestsPerMinute === undefined
      ? undefined
      : new RateBudget({
          limit: options.requestsPerMinute,
          windowMs: 60_000,
          clock,
        });
  const client = sim.clientFor(actor, {
    onRequest: (event) => requests.push(event),
    ...(budget ? { budget } : {}),
    ...options.client,
  });
  const inflight = trackInflight(client);
  /** Calls that are not waiting for a slot in the budget, which only the virtual clock can give them. */
  const moving = (): number => inflight() - client.http.budget.state().waiting;

  async function idle(): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (let quiet = 0; quiet < 3; ) {
      await turn();
      quiet = moving() === 0 ? quiet + 1 : 0;
      if (Date.now() > deadline) throw new Error("requests still in flight after 10 s");
    }
  }

  async function advance(ms: number): Promise<void> {
    await idle();
    await clock.advanceAsync(ms, idle);
  }

  let running: { telemetry: Telemetry; subscription: Subscription } | undefined;

  /** Starts telemetry on `inventory` (discovered when left out) and collects what it emits. */
  async function start(poll: PollConfig = DEFAULT_POLL, inventory?: Inventory, extra: { logger?: Logger } = {}) {
    const found = inventory ?? (await discoverInventory(client));
    const history: HistoryRecord[] = [];
    const fetched: Fetched[] = [];
    const telemetry = startTelemetry({ source: cloudSource(client), inventory: found, poll, clock, ...extra });
    const readings: Reading[] = [];
    const changes = new StateChanges();
    let completed = false;
    const subscription = telemetry.events$.subscribe({
      next: (event) => {
        if (event.kind === "availability") {
          readings.push(event);
          return;
        }
        fetched.push(event);
        history.push(...fetchedRecords(event));
        const state = changes.of(event);
        if (state) readings.push(state);
      },
      complete: () => {
        completed = true;
      },
    });
    running = { telemetry, subscription };
    await idle();
    return { telemetry, readings, fetched, history, inventory: found, isCompleted: () => completed };
  }

  return {
    sim,
    client,
    requests,
    clock,
    now,
    idle,
    advance,
    start,
    inflight,
    admin: sim.admin,
    async stop() {
      running?.telemetry.stop();
      running?.subscription.unsubscribe();
      await sim.stop();
    },
  };
}

export type Harness = Awaited<ReturnType<typeof startHarness>>;

export function ofKind<K extends Reading["kind"]>(
  readings: readonly Reading[],
  kind: K,
): Extract<Reading, { kind: K }>[] {
  return readings.filter((reading): reading is Extract<Reading, { kind: K }> => reading.kind === kind);
}
