import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type App, startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { createLogger } from "../../src/log/log.js";
import { SimClock } from "../../src/simulator/clock.js";
import { openStore } from "../../src/store/index.js";
import { eveningPeakPoints } from "../helpers/house-points.js";
import { MIDDAY, startTestSimulator } from "../helpers/simulator.js";
import { DEMO_BATTERY_AND_TARIFF, demoDaemonConfig, freePort, OVERNIGHT_TOP_UP } from "./demo.js";

/**
 * The optimiser with a second rule that shares its timed charge at a higher priority (a conflict
 * whose winner the page names), on Go-like zones with an evening peak. Dry run: the test house is
 * only read, so its SoC stays what the plan starts from.
 */
export const PLAN_RULES = [
  "dry_run: true",
  ...DEMO_BATTERY_AND_TARIFF,
  "rules:",
  "  - name: optimiser",
  "    when: { optimise: { reserve_soc: 10 } }",
  ...OVERNIGHT_TOP_UP,
].join("\n");

/** A week of a house using 300 W, 2 kW from 17:00 to 20:00 UTC, with a midday solar hump: what the plan learns from. */
export function fillWeek(storePath: string, until: number): void {
  const store = openStore(storePath);
  store.history.write(eveningPeakPoints({ device: "HOUSE0001", until, days: 7, baseWatts: 300, solarPeakWatts: 1500 }));
  store.close();
}

export interface PlanDaemon {
  readonly app: App;
  readonly url: string;
  /** The configuration file the daemon was started from, for `rules plan --config`. */
  readonly configFile: string;
  stop(): Promise<void>;
}

/**
 * The demo house on a stopped clock (its SoC holds still while the daemon, on a running clock,
 * polls it) and a daemon with `rules` (none: no rules key) started from a configuration file.
 * The house's clock stops at `start` (MIDDAY unless told).
 */
export async function startPlanDaemon(dir: string, rules: string | undefined, start = MIDDAY): Promise<PlanDaemon> {
  const sim = await startTestSimulator({ scenario: "demo", requestsPerMinute: 100_000, start, speed: 0 });
  const storePath = join(dir, "e2m.db");
  fillWeek(storePath, start);
  if (rules !== undefined) writeFileSync(join(dir, "rules.yaml"), rules);
  const port = await freePort();
  const raw = demoDaemonConfig(sim.simulator, {
    base: `e2mplan${process.pid}${port}`,
    storePath,
    port,
    ...(rules === undefined ? {} : { rules: "rules.yaml" }),
  });
  // JSON is YAML: the CLI reads the same file the daemon was started from.
  const configFile = join(dir, "configuration.yaml");
  writeFileSync(configFile, JSON.stringify(raw, null, 2));
  const app = await startApp(
    configSchema.parse(raw),
    createLogger(process.env.E2M_TEST_LOG ?? "silent"),
    "0.0.0-plan",
    {
      clock: new SimClock({ start: sim.simulator.clock.now() }),
      configFile,
    },
  );
  return {
    app,
    url: `http://127.0.0.1:${port}/`,
    configFile,
    async stop() {
      await app.stop();
      await sim.stop();
    },
  };
}
