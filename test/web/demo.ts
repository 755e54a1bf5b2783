import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { type App, startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { createLogger } from "../../src/log/log.js";
import { SimClock } from "../../src/simulator/clock.js";
import type { RunningSimulator, SimulatorOptions } from "../../src/simulator/index.js";
import type { HistoryRecord } from "../../src/store/index.js";
import { openStore } from "../../src/store/index.js";
import { MIDDAY, startTestSimulator } from "../helpers/simulator.js";

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** The battery and the two-rate tariff of the browser tests' rules files. */
export const DEMO_BATTERY_AND_TARIFF = [
  "battery: { capacity_kwh: 9.5, charge_kw: 3.0, efficiency: 0.92 }",
  "tariffs:",
  "  currency: GBP",
  "  import:",
  "    type: zones",
  "    price: 0.27",
  "    zones:",
  '      - { hours: "00:30-05:30", price: 0.085 }',
  '      - { hours: "16:00-19:00", price: 0.35 }',
  "  export: { type: fixed, price: 0.15 }",
];

/** The browser tests' rule that charges in the night's 3 cheapest hours, at priority 10. */
export const OVERNIGHT_TOP_UP = [
  "  - name: overnight-top-up",
  "    priority: 10",
  '    when: { cheapest: { hours: 3, before: "07:00", tariff: import } }',
  "    do:",
  "      - preset: timed-charge",
  "        with:",
  "          enabled: true",
  '          slots: [{ start_time: "{{ window.start }}", end_time: "{{ window.end }}", percent_limit: 100 }]',
];

/** A battery rule that charges overnight, and a second that overlaps it (a conflict). */
export const DEMO_RULES = [
  ...DEMO_BATTERY_AND_TARIFF,
  "rules:",
  "  - name: battery-by-morning",
  '    when: { battery: { target_soc: 95, before: "06:30" } }',
  "    do:",
  "      - preset: timed-charge",
  "        with:",
  "          enabled: true",
  '          slots: [{ start_time: "{{ window.start }}", end_time: "{{ window.end }}", percent_limit: "{{ plan.target_soc }}" }]',
  // Both rules write timed-charge: say which wins (priority 10), as rules.example.yaml does.
  ...OVERNIGHT_TOP_UP,
].join("\n");

export const YEAR_DEVICE = "YEAR0001";
const FIVE_MIN = 300_000;

/** A year of 5-minute points for a device the account does not list (so nothing backfills it). */
export function fillYear(storePath: string, end = Date.UTC(2026, 10, 1)): number {
  const store = openStore(storePath);
  const start = end - 365 * 86_400_000;
  let batch: HistoryRecord[] = [];
  let count = 0;
  for (let at = start; at < end; at += FIVE_MIN) {
    const hour = (at / 3_600_000) % 24;
    const solar = Math.max(0, Math.sin(((hour - 6) / 12) * Math.PI)) * 4000;
    batch.push({
      kind: "inverter.point",
      device: YEAR_DEVICE,
      at,
      key: "",
      data: {
        power: {
          solar: { power: Math.round(solar) },
          battery: { power: Math.round(Math.cos(hour) * 1500), percent: Math.round(50 + 40 * Math.sin(hour / 4)) },
          grid: { power: Math.round(solar - 700) },
          consumption: { power: 700 },
        },
      },
    });
    if (batch.length === 20_000) {
      count += store.history.write(batch).inserted;
      batch = [];
    }
  }
  count += store.history.write(batch).inserted;
  // Each day's energy flows (kWh by flow type), for the energy-per-day chart.
  const days: HistoryRecord[] = [];
  for (let day = start; day < end; day += 86_400_000) {
    const season = 1 + Math.sin(((day - start) / (365 * 86_400_000)) * 2 * Math.PI);
    days.push({
      kind: "flow.day",
      device: YEAR_DEVICE,
      at: day,
      key: "",
      data: { "0": 6 * season, "1": 4 * season, "2": 3 * season, "3": 5, "4": 2, "5": 4, "6": 0.5 },
    });
  }
  store.history.write(days);
  store.close();
  return count;
}

export interface Demo {
  readonly app: App;
  /** The page, http://127.0.0.1:port/ */
  readonly url: string;
  readonly storePath: string;
  readonly base: string;
  readonly admin: (path: string, body?: unknown, method?: string) => Promise<unknown>;
  /** The simulated cloud and house, for a test that watches what reaches the devices. */
  readonly simulator: RunningSimulator;
  stop(): Promise<void>;
}

/**
 * A browser test's daemon configuration (raw, before the schema's defaults): the simulator's cloud,
 * fast polls, its own base topic, store and web port.
 */
export function demoDaemonConfig(
  simulator: RunningSimulator,
  options: {
    readonly base: string;
    readonly storePath: string;
    readonly port: number;
    readonly rules?: string;
    readonly web?: Record<string, unknown>;
  },
) {
  return {
    cloud: { url: simulator.url, token: simulator.tokens.owner, requests_per_minute: 10_000 },
    mqtt: { base_topic: options.base },
    poll: {
      inverter: "1s",
      meter: "2s",
      ems: "1s",
      ev_charger: "1s",
      events: "5s",
      smart_device: "5s",
      inventory: "10s",
    },
    store: { path: options.storePath },
    ...(options.rules === undefined ? {} : { rules: options.rules }),
    log: { level: "silent" },
    web: { port: options.port, ...options.web },
  };
}

/**
 * The demo daemon: the simulator's demo house (or the scenario given), the embedded broker, the rules above, the page on a
 * free port. Its clock (the daemon's and the house's, one clock) starts at `start`: midday by
 * default, so the house has sunshine to show.
 */
export async function startDemo(
  dir: string,
  web: Record<string, unknown> = {},
  start = MIDDAY,
  rules = DEMO_RULES,
  scenario: SimulatorOptions["scenario"] = "demo",
): Promise<Demo> {
  const sim = await startTestSimulator({ scenario, requestsPerMinute: 100_000, start });
  const storePath = join(dir, "e2m.db");
  writeFileSync(join(dir, "rules.yaml"), rules);
  const port = await freePort();
  const base = `e2mweb${process.pid}${port}`;
  const config = configSchema.parse(
    demoDaemonConfig(sim.simulator, { base, storePath, port, rules: join(dir, "rules.yaml"), web }),
  );
  // The daemon's clock starts where the house's does and runs in real time; a test that moves the
  // simulator's clock on moves the house alone, as a cloud whose clock runs ahead would.
  const app = await startApp(config, createLogger(process.env.E2M_TEST_LOG ?? "silent"), "0.0.0-web", {
    clock: new SimClock({ start: sim.simulator.clock.now() }),
  });
  return {
    app,
    url: `http://127.0.0.1:${port}/`,
    storePath,
    base,
    admin: sim.admin,
    simulator: sim.simulator,
    async stop() {
      await app.stop();
      await sim.stop();
    },
  };
}
