import { pino } from "pino";
import { Subject } from "rxjs";
import { CloudClient } from "../../src/cloud/client.js";
import { ControlGate } from "../../src/control/index.js";
import type { RulesClock } from "../../src/homeassistant/rules-clock.js";
import { Topics } from "../../src/homeassistant/topics.js";
import { CostMeter } from "../../src/rules/savings/cost-meter.js";
import type {
  CheapWindow,
  GridCounters,
  Prices,
  RuleEvent,
  RuleRunResult,
  RuleStatus,
  RulesRuntime,
  TodayCost,
} from "../../src/rules-runtime/rules.js";
import type { Inventory } from "../../src/sources/index.js";
import type { Availability, DeviceState } from "../../src/telemetry/index.js";
import { systemClock } from "../../src/time/clock.js";

type Reading = DeviceState | Availability;

import { cloudControl, type Fetched } from "../../src/sources/index.js";
import type { TestBroker } from "../helpers/broker.js";
import { startHomeAssistant } from "../helpers/home-assistant.js";
import { type Observed, observe } from "../helpers/mqtt-observer.js";
import { inventory } from "./entities/inventory.js";

export const ORIGIN = {
  name: "energy2mqtt",
  sw_version: "0.1.0",
  support_url: "https://github.com/energy2mqtt/energy2mqtt",
};
export const TIME_ZONE = "Europe/London";

/** The engine's seam, faked: what the bridge was asked, and what it is told. */
export class FakeRuntime implements RulesRuntime {
  readonly enabledCalls: [string, boolean][] = [];
  readonly runCalls: string[] = [];
  readonly events$ = new Subject<RuleEvent>();
  window: CheapWindow | undefined;
  runResult: (name: string) => RuleRunResult = (name) => ({
    name,
    ok: true,
    dryRun: false,
    message: "1 action applied",
    actions: [{ action: 'preset eco-mode {"enabled":true}', ok: true, skipped: false, message: "applied" }],
  });

  /** Today's cost, as the rules engine keeps it: the same meter, the fake's prices. */
  private readonly cost: CostMeter;

  constructor(
    public rules: RuleStatus[],
    /** Prices per kWh at an instant. */
    public priceAt: (at: number) => Omit<Prices, "currency">,
    private readonly clock: { now(): number },
    public currency = "GBP",
    timeZone = "Europe/London",
  ) {
    this.cost = new CostMeter(timeZone);
  }

  addCounters(serial: string, at: number, counters: GridCounters): boolean {
    return this.cost.add(serial, at, counters, this.priceAt(at));
  }

  todayCost(now: number): TodayCost | undefined {
    this.cost.rollOver(now);
    return this.cost.value;
  }

  list(): RuleStatus[] {
    return this.rules.map((rule) => ({ ...rule }));
  }

  setEnabled(name: string, enabled: boolean): void {
    this.enabledCalls.push([name, enabled]);
    if (!this.rules.some((rule) => rule.name === name)) throw new Error(`no rule ${name}`);
    this.rules = this.rules.map((rule) => (rule.name === name ? { ...rule, enabled } : rule));
  }

  async runNow(name: string): Promise<RuleRunResult> {
    this.runCalls.push(name);
    return this.runResult(name);
  }

  prices(at?: number): Prices {
    return { ...this.priceAt(at ?? this.clock.now()), currency: this.currency };
  }

  nextCheapWindow(): CheapWindow | undefined {
    return this.window;
  }

  async stop(): Promise<void> {}
}

/** A clock the test moves by hand; `tick()` runs what the bridge scheduled. */
export class ManualClock implements RulesClock {
  private readonly ticks = new Set<() => Promise<void>>();
  constructor(public at: number) {}
  now(): number {
    return this.at;
  }
  every(_ms: number, tick: () => Promise<void>): () => void {
    this.ticks.add(tick);
    return () => this.ticks.delete(tick);
  }
  /** Resolves once what the ticks published has been accepted by the broker. */
  async tick(): Promise<void> {
    await Promise.all([...this.ticks].map((tick) => tick()));
  }
}

/** No devices: only the rules' entities are published. */
export const EMPTY: Inventory = { ...inventory, inverters: [], ems: [], evChargers: [], smartDevices: [] };

/** A real bridge on a real broker, with an observer on everything it publishes. */
export async function startBridge(broker: TestBroker, base: string, options: { holdFirstRound?: boolean } = {}) {
  const logLines: string[] = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => logLines.push(line) });
  const client = new CloudClient({ baseUrl: "http://127.0.0.1:9/v1", token: "test-token" });
  const gate = new ControlGate({
    clock: systemClock,
    control: cloudControl(client),
    audit: { record: () => undefined, begin: () => 0, settle: () => undefined, recent: () => [] },
    devices: { inverter: () => undefined, charger: () => undefined },
    logger,
  });
  const topics = new Topics(base, `${base}-ha`);
  const observer = await observe(broker.url, [`${base}/#`, `${base}-ha/#`]);
  const bridge = await startHomeAssistant({
    url: broker.url,
    topics,
    statusTopic: `${base}-ha/status`,
    discovery: true,
    origin: ORIGIN,
    client,
    gate,
    logger,
    inventory: EMPTY,
    ...options,
  });
  const readings = new Subject<Reading>();
  readings.subscribe((reading) =>
    reading.kind === "availability"
      ? bridge.bus.emit("availability", reading)
      : bridge.bus.emit("fetched", fetchedOf(reading)),
  );
  // start() resolves on connecting; the announcement after the first round publishes everything and ends with this line.
  const published = async (): Promise<void> => {
    await bridge.ha.announced;
    if (!logLines.some((line) => line.includes('"published discovery and state"')))
      throw new Error("the bridge did not publish after connecting");
  };
  if (!options.holdFirstRound) await published();
  let flushes = 0;
  return {
    bridge,
    observer,
    readings,
    /** With holdFirstRound: the devices' first round is in; resolves once the bridge has published. */
    firstRound: async () => {
      await bridge.firstRound();
      await published();
    },
    topics,
    /** Parsed pino lines. */
    logs: () => logLines.map((line) => JSON.parse(line) as { level: number; msg: string; [key: string]: unknown }),
    /** Messages recorded from index `mark` on that satisfy `match`: the first one, when it comes. */
    seen: (mark: number, match: (m: Observed) => boolean) =>
      observer.waitFor((m) => observer.messages.indexOf(m) >= mark && match(m)),
    /**
     * Returns once the observer has everything the bridge published before: a command the
     * bridge refuses, whose result comes on the same connection, after them.
     */
    flush: async () => {
      const entity = `flush_${++flushes}`;
      await observer.publish(`${base}/rules/set/${entity}`, "x");
      await observer.waitFor((m) => m.topic === `${base}/rules/result` && m.payload.includes(`"${entity}"`));
    },
    stop: async () => {
      await bridge.stop();
      await observer.close();
    },
  };
}

/** A unique base topic per test, so retained messages of one test never reach another. */
export const baseTopic = (): string => `e2m_${Math.random().toString(16).slice(2, 10)}`;

/** What the broker holds retained under `filter` (ending in /#), read by a new client. */
export async function retainedUnder(url: string, filter: string): Promise<Map<string, string>> {
  const reader = await observe(url, [filter]);
  try {
    // The broker sends retained messages as it subscribes us: anything we publish comes after.
    const sentinel = `${filter.slice(0, -2)}/__sentinel_${Math.random().toString(16).slice(2)}`;
    await reader.publish(sentinel, "done");
    await reader.waitFor((m) => m.topic === sentinel);
    return new Map(reader.messages.filter((m) => m.retain).map((m) => [m.topic, m.payload]));
  } finally {
    await reader.close();
  }
}

/** The fetched answer telemetry would have emitted for a state (the bus carries answers, not states). */
function fetchedOf(state: DeviceState): Fetched {
  switch (state.kind) {
    case "inverter.counters":
      return { kind: "inverter.points", serial: state.serial, at: state.at, points: [], counters: state.values };
    case "inverter.live":
    case "ems":
    case "ev.status":
      return state;
    default:
      throw new Error(`the harness does not feed ${state.kind} states`);
  }
}
