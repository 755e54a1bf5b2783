import { join } from "node:path";
import { type App, startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { createLogger, type Logger } from "../../src/log/log.js";
import { SimClock } from "../../src/simulator/clock.js";
import { freePort, startTestBroker } from "./broker.js";
import { MIDDAY, SIM_GAP_MS, startTestSimulator } from "./simulator.js";

/**
 * The demo house under `source: auto` with its EV charger on the daemon's own OCPP central system:
 * the simulator's charger connects to it as a charge point (the same simulated charger the cloud
 * reports), paired with the cloud's charger by serial. The house stands at MIDDAY (or `start`); the
 * daemon's clock runs from there in real time, or, with `sharedClock`, is the simulator's own,
 * standing still (speed 0) and moved a simulated second every `tickMs` of the wall: a busy event
 * loop slows simulated time with it rather than making it jump past the devices' answers.
 */
export async function startOcppHouse(options: {
  readonly chargePoint: string;
  readonly password: string;
  /** The topics' base and discovery prefix, each test's own. */
  readonly base: string;
  readonly prefix: string;
  readonly dir: string;
  /** More of the configuration (merged over the house's). */
  readonly config?: Readonly<Record<string, unknown>>;
  readonly logger?: Logger;
  /** Where the house's clock starts; MIDDAY by default. */
  readonly start?: number;
  /** The daemon on the simulator's clock, moved a simulated second every `tickMs` of the wall. */
  readonly sharedClock?: { readonly tickMs: number };
}) {
  const broker = await startTestBroker();
  const port = await freePort();
  const sim = await startTestSimulator({
    start: options.start ?? MIDDAY,
    ...(options.sharedClock ? { speed: 0 } : {}),
    localPort: 0,
    localResponseDelayMs: 0,
    requestsPerMinute: 100_000,
    ocpp: {
      url: `ws://127.0.0.1:${port}`,
      chargePoints: [{ id: options.chargePoint, password: options.password }],
      meterValueIntervalS: 10,
      backoff: { initialDelayMs: 100, maxDelayMs: 500 },
    },
  });
  /** Simulated ms each tick moves the shared clock: 1 s, or more over a stretch where nothing is due. */
  let stepMs = 1_000;
  const pump =
    options.sharedClock && setInterval(() => sim.simulator.clock.advance(stepMs), options.sharedClock.tickMs);
  const [charger] = await sim.clientFor("owner").evChargers.list().all();
  if (!charger) throw new Error("the demo house has no EV charger");
  const config = configSchema.parse({
    source: "auto",
    cloud: { url: sim.simulator.url, token: sim.simulator.tokens.owner, requests_per_minute: 10_000 },
    local: sim.simulator.dongles.map((dongle) => ({ host: "127.0.0.1", port: dongle.port, gap_ms: SIM_GAP_MS })),
    ocpp: {
      enabled: true,
      port,
      charge_points: [{ id: options.chargePoint, password: options.password, charger: charger.serial_number }],
    },
    mqtt: { url: broker.url, base_topic: options.base },
    homeassistant: { discovery_prefix: options.prefix, status_topic: `${options.prefix}/status` },
    poll: { inventory: "1h", ev_charger: "10s" },
    store: { path: join(options.dir, "e2m.db") },
    web: { enabled: false },
    log: { level: "silent" },
    ...options.config,
  });
  const logger = options.logger ?? createLogger(process.env.E2M_TEST_LOG ?? "silent");
  const app: App = await startApp(config, logger, "0.0.0-test", {
    clock: options.sharedClock ? sim.simulator.clock : new SimClock({ start: sim.simulator.clock.now() }),
  });
  return {
    broker,
    sim,
    app,
    uuid: charger.uuid,
    serial: charger.serial_number,
    storePath: join(options.dir, "e2m.db"),
    /** How far each tick of the shared clock moves it (1 s unless set): a quiet stretch can pass faster. */
    pace(ms: number): void {
      stepMs = ms;
    },
    async stop(): Promise<void> {
      if (pump) clearInterval(pump);
      await app.stop();
      await sim.stop();
      await broker.stop();
    },
  };
}
