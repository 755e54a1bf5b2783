import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { type SchedulerAction, type SchedulerLike, Subject, Subscription, startWith } from "rxjs";
import type { EvCommandId } from "../../../src/cloud/index.js";
import { configSchema } from "../../../src/config/index.js";
import { ControlGate, cloudDeviceReads, WriteBudget } from "../../../src/control/index.js";
import { type RuleEvent, type RulesEngine, startRules } from "../../../src/rules/engine/index.js";
import type { LiveObservation } from "../../../src/rules/engine/live-state.js";
import { loadRules } from "../../../src/rules/file/load.js";
import { observedIn } from "../../../src/rules/house/live-input.js";
import type { HouseForecast } from "../../../src/rules/planners/optimise-windows.js";
import { createTariff, type Tariff } from "../../../src/rules/tariffs/index.js";
import type { SimClock } from "../../../src/simulator/index.js";
import { loadScenario } from "../../../src/simulator/scenario/load.js";
import { ALL_SCOPES } from "../../../src/simulator/scenario/schema.js";
import { chargerStatusValues } from "../../../src/sources/cloud/ev-readings.js";
import { liveValuesOf } from "../../../src/sources/cloud/readings.js";
import type { Inventory } from "../../../src/sources/index.js";
import { cloudControl } from "../../../src/sources/index.js";
import { openStore, type Store } from "../../../src/store/index.js";
import { chargerDevice, inverterDevice } from "../../control/helpers/devices.js";
import { startTestSimulator } from "../../helpers/simulator.js";

export const INVERTER = "SD2024G001";
export const CHARGER = "6b1f0c8e-2f51-4c1b-9d3a-5e7c2a9b0d11";
export const MINUTE = 60_000;
/** control.write_budget when the configuration leaves it out. */
export const DEFAULT_WRITE_BUDGET = configSchema.parse({}).control.write_budget;
export const HOUR = 60 * MINUTE;

/** Timers on the simulator's manual clock: advanceTo() runs each due timer at its time and lets the engine finish. */
export class VirtualScheduler implements SchedulerLike {
  private tasks: { due: number; seq: number; run: () => void; done: boolean }[] = [];
  private seq = 0;
  constructor(private readonly clock: SimClock) {}

  now(): number {
    return this.clock.now();
  }

  schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0, state?: T): Subscription {
    const subscription = new Subscription();
    const action = Object.assign(subscription, { schedule: () => subscription }) as unknown as SchedulerAction<T>;
    const task = { due: this.now() + delay, seq: this.seq++, run: () => work.call(action, state), done: false };
    this.tasks.push(task);
    subscription.add(() => {
      task.done = true;
    });
    return subscription;
  }

  async advanceTo(target: number, settle: () => Promise<void>, each?: () => Promise<void>): Promise<void> {
    for (;;) {
      this.tasks = this.tasks.filter((task) => !task.done);
      const next = this.tasks.filter((task) => task.due <= target).sort((a, b) => a.due - b.due || a.seq - b.seq)[0];
      if (!next) break;
      if (next.due > this.now()) this.clock.advance(next.due - this.now());
      next.done = true;
      next.run();
      await settle();
      await each?.();
    }
    if (target > this.now()) this.clock.advance(target - this.now());
  }
}

/** The fixture's Agile day moved so that it starts at `dayStart` (23:00 UTC). */
export function shiftedAgile(dayStart: number): string {
  const fixture = JSON.parse(
    readFileSync(new URL("../../fixtures/octopus-agile-prices.example.json", import.meta.url), "utf8"),
  ) as { results: { valid_from: string; valid_to: string; value_inc_vat: number }[] };
  const first = Math.min(...fixture.results.map((slot) => Date.parse(slot.valid_from)));
  const shift = dayStart - first;
  const move = (text: string) => new Date(Date.parse(text) + shift).toISOString().replace(".000Z", "Z");
  return JSON.stringify({
    results: fixture.results.map((slot) => ({
      ...slot,
      valid_from: move(slot.valid_from),
      valid_to: move(slot.valid_to),
    })),
  });
}

export interface EnvOptions {
  readonly start: number;
  /** rules.yaml lines; `agile.json` next to it holds the shifted fixture. */
  readonly rules: readonly string[];
  /** The actor whose token the engine uses. */
  readonly actor?: string;
  readonly dryRun?: boolean;
  /** The demo inverter's flags, on the simulator and in the inventory alike; left out, the scenario's. */
  readonly inverterFlags?: readonly string[];
  /** The commands the inventory says the charger takes; left out, all those it lists. */
  readonly chargerCommands?: (listed: readonly EvCommandId[]) => EvCommandId[];
}

/** The simulator (manual clock), a real SQLite file, the gate, and the engine on virtual time. */
export async function startEnv(options: EnvOptions) {
  const demo = loadScenario("demo");
  const flags = options.inverterFlags;
  const scenario = {
    ...demo,
    accounts: demo.accounts.map((account) => ({
      ...account,
      devices: account.devices.map((device) =>
        device.inverter.serial === INVERTER && flags
          ? { ...device, inverter: { ...device.inverter, flags: [...flags] } }
          : device,
      ),
    })),
  };
  const inverterFlags = scenario.accounts
    .flatMap((account) => account.devices)
    .find((device) => device.inverter.serial === INVERTER)?.inverter.flags;
  // A token that may control the inverter but not take snapshots: the local fallback.
  const withoutSnapshots = ALL_SCOPES.filter((scope) => !scope.startsWith("api:snapshot"));
  const sim = await startTestSimulator({
    speed: 0,
    start: options.start,
    scenario: {
      ...scenario,
      actors: [...scenario.actors, { name: "nosnap", account: "demo-owner", type: "user", scopes: withoutSnapshots }],
    },
  });
  const dir = mkdtempSync(join(tmpdir(), "e2m-engine-"));
  const dayStart = Date.UTC(
    new Date(options.start).getUTCFullYear(),
    new Date(options.start).getUTCMonth(),
    new Date(options.start).getUTCDate(),
    23,
  );
  writeFileSync(join(dir, "agile.json"), shiftedAgile(dayStart));
  writeFileSync(join(dir, "rules.yaml"), `${options.rules.join("\n")}\n`);
  const loaded = loadRules(join(dir, "rules.yaml"));
  const dbPath = join(dir, "energy2mqtt.db");
  const requests: string[] = [];
  const client = sim.clientFor(options.actor ?? "owner", { onRequest: (event) => requests.push(event.endpoint) });
  const checker = sim.clientFor("owner");
  const inventory: Inventory = {
    account: await checker.account.get(),
    timezone: "Europe/London",
    inverters: [await inverterDevice(checker, INVERTER, inverterFlags ? { flags: inverterFlags } : {})],
    ems: [],
    evChargers: [await chargerDevice(checker, CHARGER)].map((charger) =>
      options.chargerCommands ? { ...charger, commands: options.chargerCommands(charger.commands) } : charger,
    ),
    smartDevices: [],
    sites: [],
  };
  const baseLive = await checker.inverterData.systemDataLatest(INVERTER);
  const baseCharger = await checker.evChargers.get(CHARGER);
  const logs: string[] = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => logs.push(line) });
  const stores: Store[] = [];

  /**
   * One run of the daemon: its own store connection, readings, timers and engine. As in the
   * daemon, the rules plan once telemetry's first round is in, so its inverter values come
   * first; `firstRound: false` is a first round that brought none, `{ soc }` one that read this SoC.
   */
  async function startRuntime(
    run: {
      readonly firstRound?: false | { readonly soc: number };
      /** The house's forecast for optimise rules, as the daemon reads it from the store; left out, not modelled. */
      readonly house?: (now: number) => HouseForecast | undefined;
    } = {},
  ) {
    const store = openStore(dbPath);
    stores.push(store);
    const gate = new ControlGate({
      control: cloudControl(client),
      audit: store.audit,
      devices: {
        inverter: (serial) => inventory.inverters.find((found) => found.serial === serial),
        charger: (uuid) => inventory.evChargers.find((found) => found.uuid === uuid),
      },
      logger,
      clock: sim.simulator.clock,
      // The daemon's default budget, counted as it counts: what a day of rules writes.
      writeBudget: new WriteBudget({
        counts: store.writeCounts,
        limit: DEFAULT_WRITE_BUDGET,
        clock: sim.simulator.clock,
        timeZone: () => inventory.timezone,
        logger,
      }),
    });
    const tariffs: { import?: Tariff; export?: Tariff } = {};
    const zone = loaded.rules.timezone ?? "Europe/London";
    const config = loaded.rules.tariffs.import;
    if (config) tariffs.import = createTariff(config, zone);
    const exportConfig = loaded.rules.tariffs.export;
    if (exportConfig) tariffs.export = createTariff(exportConfig, zone);
    const live = new Subject<LiveObservation>();
    const firstLive = await checker.inverterData.systemDataLatest(INVERTER);
    const soc = run.firstRound === undefined || run.firstRound === false ? undefined : run.firstRound.soc;
    const first =
      run.firstRound === false
        ? undefined
        : observedIn({
            kind: "inverter.live",
            at: sim.simulator.clock.now(),
            serial: INVERTER,
            measuredAt: undefined,
            values: liveValuesOf(
              soc === undefined ? firstLive : { ...firstLive, battery: { ...firstLive.battery, percent: soc } },
            ),
          });
    const scheduler = new VirtualScheduler(sim.simulator.clock);
    const events: RuleEvent[] = [];
    const runtime: RulesEngine = await startRules({
      rules: loaded.rules,
      tariffs,
      gate,
      reads: cloudDeviceReads(cloudControl(client)),
      store,
      inventory: () => inventory,
      live$: first ? live.pipe(startWith(first)) : live,
      clock: scheduler,
      logger,
      ...(run.house ? { house: run.house } : {}),
      ...(options.dryRun === undefined ? {} : { dryRun: options.dryRun }),
    });
    runtime.events$.subscribe((event) => events.push(event));
    /** Feeds the engine one observation and waits until it has acted on it. */
    const push = async (seen: LiveObservation | undefined) => {
      if (seen) live.next(seen);
      await runtime.idle();
    };
    /** Feeds the engine the inverter's live data, as telemetry would. */
    const pushLive = async () => {
      const data = await checker.inverterData.systemDataLatest(INVERTER);
      const at = sim.simulator.clock.now();
      await push(
        observedIn({ kind: "inverter.live", at, serial: INVERTER, measuredAt: at, values: liveValuesOf(data) }),
      );
    };
    /**
     * Feeds the engine the inverter's live data, shaped as telemetry's (the simulator's own reading)
     * but with only the battery, solar and grid values given here.
     */
    const pushInverter = (values: { soc?: number; pv?: number; grid?: number }, serial = INVERTER) => {
      const { battery, solar, grid, ...rest } = baseLive;
      return push(
        observedIn({
          kind: "inverter.live",
          at: sim.simulator.clock.now(),
          serial,
          measuredAt: undefined,
          values: liveValuesOf({
            ...rest,
            ...(values.soc === undefined ? {} : { battery: { ...battery, percent: values.soc } }),
            ...(values.pv === undefined ? {} : { solar: { arrays: [], ...solar, power: values.pv } }),
            ...(values.grid === undefined ? {} : { grid: { ...grid, power: values.grid } }),
          }),
        }),
      );
    };
    /** Feeds the engine the charger's status, as the EV telemetry would. */
    const pushCharger = (status: string) =>
      push(
        observedIn({
          kind: "ev.status",
          uuid: CHARGER,
          at: sim.simulator.clock.now(),
          values: chargerStatusValues({ ...baseCharger, status }),
        }),
      );
    /** Advances virtual time, running the engine's timers and `each` after every one of them. */
    const advanceTo = (target: number, each?: () => Promise<void>) =>
      scheduler.advanceTo(target, () => runtime.idle(), each);
    return { runtime, store, events, live, pushLive, push, pushInverter, pushCharger, advanceTo, scheduler };
  }

  return {
    sim,
    client,
    checker,
    requests,
    logs,
    dir,
    dbPath,
    startRuntime,
    now: () => sim.simulator.clock.now(),
    stop: async () => {
      for (const store of stores) store.close();
      rmSync(dir, { recursive: true, force: true });
      await sim.stop();
    },
  };
}

export type Env = Awaited<ReturnType<typeof startEnv>>;
export type Run = Awaited<ReturnType<Env["startRuntime"]>>;

/** When a rule with one action ran it: the times its action was about to be sent (or logged in dry run). */
export function runsOf(events: readonly RuleEvent[], rule: string): number[] {
  return events
    .filter((event) => event.type === "action" && event.rule === rule && ["planned", "dry-run"].includes(event.status))
    .map((event) => event.at);
}

/** rules.yaml for an optimise rule on the fixture's Agile day, with an export price that pays. */
export function optimiseRules(extra: readonly string[] = []): string[] {
  return [
    "timezone: Europe/London",
    "battery: { capacity_kwh: 9.5, charge_kw: 3 }",
    "tariffs:",
    "  import: { type: agile, file: agile.json }",
    "  export: { type: fixed, price: 0.3 }",
    "rules:",
    "  - name: optimiser",
    ...extra,
    "    when: { optimise: { reserve_soc: 10 } }",
  ];
}
