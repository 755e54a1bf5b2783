import { join } from "node:path";
import { type App, startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { createLogger } from "../../src/log/log.js";
import { SimClock } from "../../src/simulator/clock.js";
import { freePort, startTestBroker } from "./broker.js";
import { MIDDAY, SIM_GAP_MS, startTestSimulator } from "./simulator.js";

/**
 * The demo house under `source: local`, no cloud at all: its inverters on their dongles, its EV
 * charger on Modbus TCP (`modbus`) or on the daemon's OCPP central system (`ocpp`), named by the
 * configuration with the uuid the simulator's cloud lists it under (read here, never by the
 * daemon), so its entities are the ones it has over the cloud. With `source: "auto"`, the daemon
 * has the simulator's cloud too. The house stands at MIDDAY; the daemon's clock runs from there
 * in real time.
 */
export async function startLocalChargerHouse(options: {
  readonly path: "modbus" | "ocpp";
  readonly source?: "local" | "auto";
  /** The topics' base and discovery prefix, each test's own. */
  readonly base: string;
  readonly prefix: string;
  readonly dir: string;
}) {
  const broker = await startTestBroker();
  const ocppPort = await freePort();
  const chargePoint = { id: "EVC-LOCAL", password: "local-secret-1" };
  const sim = await startTestSimulator({
    start: MIDDAY,
    localPort: 0,
    localResponseDelayMs: 0,
    requestsPerMinute: 100_000,
    ...(options.path === "modbus"
      ? { evcModbusPort: 0 }
      : {
          ocpp: {
            url: `ws://127.0.0.1:${ocppPort}`,
            chargePoints: [chargePoint],
            meterValueIntervalS: 10,
            backoff: { initialDelayMs: 100, maxDelayMs: 500 },
          },
        }),
  });
  const [charger] = await sim.clientFor("owner").evChargers.list().all();
  if (!charger) throw new Error("the demo house has no EV charger");
  const modbus = sim.simulator.evc?.modbusOf(charger.uuid);
  if (options.path === "modbus" && !modbus) throw new Error("the simulator serves no Modbus for the charger");
  const config = configSchema.parse({
    source: options.source ?? "local",
    ...(options.source === "auto"
      ? { cloud: { url: sim.simulator.url, token: sim.simulator.tokens.owner, requests_per_minute: 10_000 } }
      : {}),
    local: sim.simulator.dongles.map((dongle) => ({ host: "127.0.0.1", port: dongle.port, gap_ms: SIM_GAP_MS })),
    ev_chargers: [
      {
        serial: charger.serial_number,
        uuid: charger.uuid,
        ...(modbus ? { modbus: { host: "127.0.0.1", port: modbus.port } } : {}),
      },
    ],
    ...(options.path === "ocpp"
      ? { ocpp: { enabled: true, port: ocppPort, charge_points: [{ ...chargePoint, charger: charger.serial_number }] } }
      : {}),
    mqtt: { url: broker.url, base_topic: options.base },
    homeassistant: { discovery_prefix: options.prefix, status_topic: `${options.prefix}/status` },
    poll: { inventory: "1h", ev_charger: "10s", local: "2s" },
    store: { path: join(options.dir, "e2m.db") },
    web: { enabled: false },
    log: { level: "silent" },
  });
  const logger = createLogger(process.env.E2M_TEST_LOG ?? "silent");
  const app: App = await startApp(config, logger, "0.0.0-test", {
    clock: new SimClock({ start: sim.simulator.clock.now() }),
  });
  return {
    broker,
    sim,
    app,
    uuid: charger.uuid,
    serial: charger.serial_number,
    chargePoint: chargePoint.id,
    modbus,
    storePath: join(options.dir, "e2m.db"),
    async stop(): Promise<void> {
      await app.stop();
      await sim.stop();
      await broker.stop();
    },
  };
}
