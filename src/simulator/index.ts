import { SimClock } from "./clock.js";
import { ROUTES } from "./http/routes/index.js";
import { startServer } from "./http/server.js";
import { loadScenario } from "./scenario/load.js";
import type { Scenario } from "./scenario/schema.js";
import { World } from "./world/world.js";

export { SimClock } from "./clock.js";
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
}

export interface RunningSimulator {
  /** Base URL ending in /v1. */
  readonly url: string;
  /** Token of each actor in the scenario, by actor name. */
  readonly tokens: Readonly<Record<string, string>>;
  readonly world: World;
  readonly clock: SimClock;
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
  const server = await startServer({
    world,
    clock,
    routes: ROUTES,
    requestsPerMinute: options.requestsPerMinute ?? scenario.requests_per_minute,
    host: options.host ?? "127.0.0.1",
    port: options.port ?? 8787,
    admin: options.admin ?? true,
  });
  const tokens: Record<string, string> = {};
  for (const actor of world.actors.values()) tokens[actor.name] = actor.token;
  return { url: server.url, tokens, world, clock, stop: () => server.close() };
}
