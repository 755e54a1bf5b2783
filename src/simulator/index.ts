import { SimClock } from "./clock.js";
import { EvcLinks, type EvcOcppOptions } from "./ev/links.js";
import { ROUTES } from "./http/routes/index.js";
import { startServer } from "./http/server.js";
import type { DeviceClockBehaviour } from "./local/device-clock.js";
import { type DongleInfo, type LocalDongles, startDongles } from "./local/dongles.js";
import { loadScenario } from "./scenario/load.js";
import type { Scenario } from "./scenario/schema.js";
import { World } from "./world/world.js";

export { SimClock } from "./clock.js";
export type { EvcLinks, EvcOcppOptions } from "./ev/links.js";
export { type EvcModbusFaults, EvcModbusServer, MODBUS_ACTOR, type ModbusWrite } from "./ev/modbus-server.js";
export {
  OCPP_ACTOR,
  OcppChargePoint,
  type OcppChargePointOptions,
  type ReceivedCall,
  type SentCall,
} from "./ev/ocpp-charge-point.js";
export type { LocalCharger } from "./ev/types.js";
export { ChainError } from "./local/device-chain.js";
export type { DongleInfo } from "./local/dongles.js";
export { demoHouseScenario } from "./scenario/demo-house.js";
export { ScenarioError } from "./scenario/load.js";
export type { Scenario } from "./scenario/schema.js";
export { World } from "./world/world.js";

export interface SimulatorOptions {
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port?: number;
  readonly speed?: number;
  readonly seed?: number;
  /** A built-in name (demo, hybrid, ac-coupled, aio, gateway, three-phase, plant-ems), `fleet:N`, a YAML file, or an already loaded scenario. */
  readonly scenario?: string | Scenario;
  /** Simulated time at start-up, epoch ms; defaults to now. */
  readonly start?: number;
  readonly requestsPerMinute?: number;
  readonly admin?: boolean;
  /**
   * Opens a dongle per inverter, EMS and gateway speaking the local protocol, each on its own
   * port from this one on (0: free ports). Left out: no dongles.
   */
  readonly localPort?: number;
  /**
   * One address per dongle, all on `localPort` (e.g. 127.83.0.2, 127.83.0.3, ... on one port: a
   * LAN of dongles on 8899 for `local scan`); left out, they all listen on `host`.
   */
  readonly localHosts?: readonly string[];
  /** Simulated ms a dongle takes to answer (150 by default; 0 answers at once, for tests on a pinned clock). */
  readonly localResponseDelayMs?: number;
  /** Simulated ms between a dongle's heartbeats (60 s by default). */
  readonly localHeartbeatMs?: number;
  /** How each inverter's and EMS's own clock behaves at start (drift, whether it keeps summer time itself); also `/__admin/clocks`. */
  readonly localDeviceClock?: DeviceClockBehaviour;
  /** Each EV charger as an OCPP 1.6J charge point of this central system. Left out: none. */
  readonly ocpp?: EvcOcppOptions;
  /** Each EV charger's Modbus TCP registers, on its own port from this one on (0: free ports). Left out: none. */
  readonly evcModbusPort?: number;
}

export interface RunningSimulator {
  /** Base URL ending in /v1. */
  readonly url: string;
  /** Token of each actor in the scenario, by actor name. */
  readonly tokens: Readonly<Record<string, string>>;
  readonly world: World;
  readonly clock: SimClock;
  /** The dongles, when `localPort` was given; empty otherwise. */
  readonly dongles: readonly DongleInfo[];
  /** The dongles themselves (faults, stats), when open. */
  readonly local?: LocalDongles;
  /** The EV chargers' OCPP charge points and Modbus servers, when `ocpp` or `evcModbusPort` was given. */
  readonly evc?: EvcLinks;
  stop(): Promise<void>;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const scenario = typeof options.scenario === "object" ? options.scenario : loadScenario(options.scenario ?? "demo");
  const clock = new SimClock({
    speed: options.speed ?? 1,
    ...(options.start !== undefined ? { start: options.start } : {}),
  });
  const seed = options.seed ?? 1;
  const world = new World(scenario, seed, clock.now());
  const local =
    options.localPort === undefined
      ? undefined
      : await startDongles(world, clock, {
          host: options.host ?? "127.0.0.1",
          firstPort: options.localPort,
          ...(options.localHosts === undefined ? {} : { hosts: options.localHosts }),
          ...(options.localResponseDelayMs === undefined ? {} : { responseDelayMs: options.localResponseDelayMs }),
          ...(options.localHeartbeatMs === undefined ? {} : { heartbeatMs: options.localHeartbeatMs }),
          ...(options.localDeviceClock === undefined ? {} : { deviceClock: options.localDeviceClock }),
        });
  let evc: EvcLinks | undefined;
  try {
    evc = await EvcLinks.start(
      [...world.chargers.values()].map((record) => record.model.local()),
      clock,
      {
        host: options.host ?? "127.0.0.1",
        ...(options.ocpp ? { ocpp: options.ocpp } : {}),
        ...(options.evcModbusPort === undefined ? {} : { modbusPort: options.evcModbusPort }),
      },
    );
  } catch (error) {
    await local?.close();
    throw error;
  }
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({
      world,
      clock,
      routes: ROUTES,
      requestsPerMinute: options.requestsPerMinute ?? scenario.requests_per_minute,
      host: options.host ?? "127.0.0.1",
      port: options.port ?? 8787,
      admin: options.admin ?? true,
      ...(local ? { local } : {}),
      ...(evc ? { evc } : {}),
    });
  } catch (error) {
    await local?.close();
    await evc?.close();
    throw error;
  }
  const tokens: Record<string, string> = {};
  for (const actor of world.actors.values()) tokens[actor.name] = actor.token;
  return {
    url: server.url,
    tokens,
    world,
    clock,
    dongles: local?.info() ?? [],
    ...(local ? { local } : {}),
    ...(evc ? { evc } : {}),
    stop: async () => {
      await evc?.close();
      await local?.close();
      await server.close();
    },
  };
}
