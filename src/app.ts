import { CloudAccess } from "./app-cloud-access.js";
import { StartupError, StartupStopped } from "./app-errors.js";

export { StartupError, StartupStopped };

import { checkDaemonRulesOnDevices, loadDaemonRules } from "./app-rules.js";
import { rulesHelp, rulesPlan } from "./app-web.js";
import { EventBus } from "./bus.js";
import {
  AuthenticationError,
  CloudClient,
  CloudError,
  ForbiddenError,
  RateBudget,
  SubscriptionRequiredError,
} from "./cloud/index.js";
import type { Config } from "./config/index.js";
import { ControlGate, ControlReadBack, cloudDeviceReads, WriteBudget } from "./control/index.js";
import { withDemoRules } from "./demo-rules.js";
import { DEMO_HISTORY_DAYS, isDemo, withDemoStore } from "./demo-store.js";
import { deviceIdOf } from "./device-id.js";
import type { Feature } from "./feature.js";
import {
  bridgeNode,
  type DevicePathHealth,
  Freshness,
  healthFeature,
  healthFilePath,
  startHealthWriter,
} from "./health/index.js";
import { historyFeature } from "./history/index.js";
import { homeAssistant, Topics } from "./homeassistant/index.js";
import type { LogFeed, Logger } from "./log.js";
import { MqttRefusedError, type MqttTls, MqttTlsFileError, mqttFeature, readMqttTls } from "./mqtt/index.js";
// biome-ignore lint/style/noRestrictedImports: past the face on purpose: rules/index.ts loads the whole engine, and the rules load only when a configuration names them.
import { rulesFeature } from "./rules/feature.js";
import {
  type AutoSource,
  autoControl,
  autoSource,
  cloudControl,
  cloudHistory,
  cloudSource,
  type DeviceControl,
  type DeviceSource,
  type HistorySource,
  localControl,
  localSource,
  noWritePath,
  PathChoice,
  type PathSetting,
} from "./sources/index.js";
import {
  type AuditLog,
  MemoryLocalSnapshots,
  MemoryWriteCounts,
  openStore,
  ReopeningAuditLog,
  type Store,
} from "./store/index.js";
import { type Inventory, inventoryFeature, telemetryFeature } from "./telemetry/index.js";
import { type Clock, later } from "./time/index.js";
import { webFeature } from "./web/index.js";

export interface App {
  readonly inventory: Inventory;
  readonly cloudUrl: string;
  readonly mqttUrl: string;
  /** Set when the daemon started the simulator itself. */
  readonly simulated: boolean;
  /** The SQLite file in use (the demo house keeps its own). */
  readonly storePath: string;
  /** Set when the daemon started the embedded broker on another port because 1883 was taken. */
  readonly brokerMoved: boolean;
  /** The web page's address, when it is served. */
  readonly webUrl: string | undefined;
  /** Set when the demo house runs its own rules (no rules file configured): that file. */
  readonly demoRules?: string;
  stop(): Promise<void>;
}

/** Once a stop begins, cloud calls under way get this long to finish before they are aborted. */
const CLOUD_GRACE_MS = 400;
/** Home Assistant's share of the stop: commands under way finish and are answered. */
const COMMANDS_STOP_MS = 400;
/** The MQTT connection's share of the stop: offline published, the connection closed. */
const MQTT_STOP_MS = 400;
/** How long a change over the LAN may take to be echoed: the request in flight before it and its own (5 s timeout each), and the pacing between. */
const LAN_ANSWER_MS = 12_000;

const ORIGIN = { name: "energy2mqtt", support_url: "https://github.com/energy2mqtt/energy2mqtt" };

/**
 * The composition root: wires cloud, store, control, telemetry and Home Assistant, starting
 * the embedded simulator and broker when nothing is configured, and stops them in reverse.
 */
export async function startApp(
  configured: Config,
  logger: Logger,
  version: string,
  options: {
    readonly configFile?: string;
    readonly feed?: LogFeed;
    readonly signal?: AbortSignal;
    /** The one clock every part reads and sets its timers on (`run` gives the system's). */
    readonly clock: Clock;
    /**
     * Another path to the house for discovery, polls, the control gate and (when given) the gap
     * backfill, e.g. an in-memory one in tests; the cloud by default.
     */
    readonly sources?: {
      readonly source: DeviceSource;
      readonly control: DeviceControl;
      readonly history?: HistorySource;
    };
  },
): Promise<App> {
  // The demo house (no cloud, no LAN, no path of the caller's): its own store, and its own rules
  // unless the configuration names some.
  const demo = !options.sources && isDemo(configured);
  const config = demo ? withDemoRules(withDemoStore(configured)) : withDemoStore(configured);
  const { clock } = options;
  const now = (): number => clock.now();
  // What to undo, last started first; taken from the end, so what start-up adds while a stop
  // is under way is undone too.
  const stack: (() => Promise<void>)[] = [];
  // What to do the moment a stop begins, before anything is undone.
  const halts: (() => void)[] = [];
  let started = false;
  // Each call drains what is left, after any drain under way: a second call undoes what start-up
  // added after the first.
  let draining = Promise.resolve();
  const stopAll = (): Promise<void> => {
    draining = draining.then(async () => {
      for (const halt of halts.splice(0)) halt();
      for (let stop = stack.pop(); stop; stop = stack.pop())
        await stop().catch((error: unknown) => logger.warn({ err: error }, "stop failed"));
    });
    return draining;
  };
  // A stop during start-up: whatever start-up waits for fails at once, and what started is undone.
  const alive = (): void => {
    if (options.signal?.aborted) throw new StartupStopped();
  };
  const onAbort = (): void => void stopAll();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const rulesFile = await loadDaemonRules(config, options.configFile);
    const tls = mqttTlsOrExit(config, options.configFile);
    if (config.source === "auto" && !config.cloud.url && !options.sources)
      throw new StartupError(
        "source: auto reads each device's dongle with the cloud as fallback, so it needs the cloud too: set cloud.url and cloud.token, or source: local for the LAN alone",
        2,
      );
    // Reading over the LAN needs no cloud: with none configured, no demo house starts either.
    const cloud =
      config.source === "local" && !config.cloud.url
        ? undefined
        : await startCloud(config, logger, stack, options.clock);
    alive();
    const { url: mqttUrl, moved: brokerMoved } = await startBroker(config, logger, stack);
    alive();
    const store = openStoreOrWarn(config, logger);
    if (store) stack.push(async () => store.close());
    const audit = store?.audit ?? reopeningAudit(config, logger, stack);
    const healthFile = startHealthWriter({ file: healthFilePath(config.store.path), logger, clock });
    stack.push(async () => healthFile.stop());

    // Features talk through the bus; a handler that fails is logged and the others go on.
    const bus = new EventBus(({ event, owner, error }) =>
      logger.error({ err: error, event, feature: owner }, "a feature failed to handle an event; the others go on"),
    );
    bus.on("cloudRequest", "health-file", (request) => healthFile.cloudRequest(request.status));
    // With dongles to read, a cloud that refuses the token does not stop the daemon.
    const carryingOn =
      config.source !== "cloud" && config.local.length > 0 && !options.sources ? CARRYING_ON[config.source] : undefined;
    const access = cloud && new CloudAccess({ token: cloud.token, storePath: config.store.path, carryingOn, logger });
    const client =
      cloud &&
      cloudClient(cloud, config, clock, (endpoint, status) => {
        access?.record(endpoint, status);
        bus.emit("cloudRequest", { status });
      });
    if (client) {
      // Cloud calls under way get a short grace once a stop begins, then they are aborted; the
      // stack closes the client for good before the store, which records how each change ended.
      halts.push(() => {
        if (options.signal?.aborted && !started) client.close();
        else later(clock, CLOUD_GRACE_MS, () => client.close(), { background: true });
      });
      stack.push(async () => client.close());
      alive();
      await checkToken(client, access, carryingOn, logger);
    }
    const noWrites = noWritePath();
    const budget =
      client?.http.budget ?? new RateBudget({ limit: config.cloud.requests_per_minute, windowMs: 60_000, clock });
    const local =
      !options.sources && config.source !== "cloud"
        ? localSource({
            dongles: config.local,
            clock,
            timezone: config.timezone,
            liveMs: config.poll.local,
            logger,
            writes: true,
            runWithoutDongles: config.source === "local",
          })
        : undefined;
    if (local) stack.push(async () => local.close());
    const auto: AutoSource | undefined =
      local && client && config.source === "auto"
        ? autoSource({
            cloud: cloudSource(client),
            local,
            choice: new PathChoice({
              clock,
              failbackMs: config.auto.failback,
              settings: Object.fromEntries(
                Object.entries(config.devices).map(([serial, device]): [string, PathSetting] => [
                  serial,
                  device.source,
                ]),
              ),
              onPath: (change) => {
                if (change.from !== undefined)
                  logger.warn(
                    { device: change.serial, from: change.from, to: change.to },
                    `${change.serial}: live data now over ${change.to === "local" ? "its dongle on the LAN" : "the cloud"}: ${change.why}`,
                  );
                bus.emit("devicePath", { device: deviceIdOf(change.serial), path: change.to, at: change.at });
              },
            }),
            lan: { liveMs: config.poll.local, clock },
            logger,
          })
        : undefined;
    const source = options.sources?.source ?? auto ?? local ?? (client ? cloudSource(client) : undefined);
    if (!source) throw new StartupError("no path to the house: configure cloud, or local with source: local", 2);
    // Every change goes through the same gate: over the LAN with source: local, by each device's
    // path with source: auto, by the cloud otherwise.
    const lanControl = local && localControl({ dongleOf: (serial) => local.dongleOf(serial), answerMs: LAN_ANSWER_MS });
    const control =
      options.sources?.control ??
      (auto && client
        ? autoControl(
            cloudControl(client),
            auto.choice,
            lanControl,
            (serial) => local?.dongleOf(serial)?.reachable ?? false,
          )
        : undefined) ??
      lanControl ??
      (client ? cloudControl(client) : noWrites);
    const paths = auto && (() => pathsById(auto));
    const historySource = options.sources ? options.sources.history : client && cloudHistory(client);
    const first = await source.discover({ logger });
    await checkDaemonRulesOnDevices(rulesFile, first);
    const devices = inventoryFeature({
      source,
      bus,
      first,
      everyMs: config.poll.inventory,
      logger,
      clock,
    });
    const inventory = (): Inventory => devices.current;
    const freshness = new Freshness({
      poll: config.poll,
      staleAfterMs: config.homeassistant.stale_after,
      inventory,
      startedAt: now(),
    });
    alive();
    const devicesById = {
      inverter: (serial: string) =>
        inventory().inverters.find((i) => i.serial === serial) ?? inventory().ems.find((e) => e.serial === serial),
      charger: (uuid: string) => inventory().evChargers.find((c) => c.uuid === uuid),
    };
    const gate = new ControlGate({
      control,
      audit,
      devices: devicesById,
      logger,
      onApplied: (event) => bus.emit("changeApplied", event),
      clock,
      // Without a store the counts and snapshots last until the daemon stops.
      writeBudget: new WriteBudget({
        counts: store?.writeCounts ?? new MemoryWriteCounts(),
        limit: config.control.write_budget,
        clock,
        timeZone: () => inventory().timezone,
        logger,
      }),
      localSnapshots: store?.localSnapshots ?? new MemoryLocalSnapshots(),
    });
    // Before the store closes: a write still waiting for its late answer is given up and recorded.
    stack.push(() => gate.stop());

    const topics = new Topics(config.mqtt.base_topic, config.homeassistant.discovery_prefix);
    const telemetry = telemetryFeature({ source, poll: config.poll, bus, inventory, logger, clock });
    const mqtt = mqttFeature({
      bus,
      url: mqttUrl,
      ...(config.mqtt.username ? { username: config.mqtt.username } : {}),
      ...(config.mqtt.password ? { password: config.mqtt.password } : {}),
      ...(config.mqtt.client_id ? { clientId: config.mqtt.client_id } : {}),
      ...(tls ? { tls } : {}),
      stateTopic: topics.bridgeState,
      logger,
      clock,
      stopMs: MQTT_STOP_MS,
    });
    const ha = homeAssistant({
      bus,
      mqtt,
      topics,
      statusTopic: config.homeassistant.status_topic,
      discovery: config.homeassistant.discovery,
      origin: { ...ORIGIN, sw_version: version },
      client: client ?? (lanControl ?? noWrites).cloudOnly,
      gate,
      readBack: new ControlReadBack(control, gate, devicesById, logger),
      inventory,
      logger,
      clock,
      keepNodes: [bridgeNode(topics)],
      stopMs: COMMANDS_STOP_MS,
    });
    // Until the rules are attached, a command to them is told to wait rather than that there are none.
    let rulesPending = rulesFile !== undefined;
    ha.rulesStarting(rulesPending);
    const history = store && historyFeature({ config, source: historySource, store, bus, inventory, logger, clock });
    const health = healthFeature({
      bus,
      status: {
        version,
        config,
        cloud: cloud ?? NO_CLOUD,
        topics,
        origin: { ...ORIGIN, sw_version: version },
        publish: (topic, payload, retain) => mqtt.publish(topic, payload, { retain }),
        connected: () => mqtt.connected,
        budget: () => budget.state(),
        inventory,
        freshness,
        store: () => (!store ? "not open" : history?.failing ? "failing" : "ok"),
        rules: rulesFile !== undefined,
        writes: () => gate.writesToday(),
        ...(options.feed ? { feed: options.feed } : {}),
        clock,
        ...(paths ? { paths } : {}),
        ...(access ? { refusal: () => access.refusal() } : {}),
        ...(local ? { missingBlocks: () => byDeviceId(local.missingBlocks()) } : {}),
      },
      // Info, discovery and health go out with Home Assistant's, after every (re)connection.
      republishOn: (status) => bus.on("republish", "health", () => status.publishAll()),
      logger,
    });
    const rules = rulesFeature({
      bus,
      loaded: rulesFile,
      gate,
      reads: cloudDeviceReads(gate.reads),
      store,
      inventory: first,
      logger,
      clock,
      dryRun: config.dry_run,
      mqtt,
    });
    // Home Assistant shows the rules once it has announced the devices.
    let rulesAttached = Promise.resolve();
    bus.on("rulesStarted", "homeassistant-rules", ({ runtime }) => {
      rulesAttached = ha.announced.then(() => ha.attachRules(runtime));
      return rulesAttached;
    });
    const web = webFeature({
      config: config.web,
      bus,
      store,
      storePath: config.store.path,
      inventory,
      rules: () => rules.runtime,
      rulesStarting: () => rulesPending,
      plan: rulesPlan(rulesFile, inventory, store?.history, clock, store?.publishedPrices),
      planHelp: rulesHelp(options.configFile),
      budget: () => budget.state(),
      prices: (at) => rules.runtime?.prices(at) ?? { currency: "" },
      timeZone: () => inventory().timezone || config.timezone,
      clock,
      version,
      simulated: cloud?.simulated ?? false,
      logger,
      ...(paths ? { paths } : {}),
      ...(access ? { refusal: () => access.refusal() } : {}),
      source: config.source,
      controls: (serial) => gate.controlValues(serial),
      writesToday: () => gate.writesToday(),
    });
    // Consumers first, the sources of events (telemetry, the device lists) last, so that nothing
    // they say is missed; stopped in reverse.
    const features: Feature[] = [
      mqtt,
      ...(history ? [history] : []),
      ...ha.features,
      health,
      web,
      rules,
      telemetry,
      devices,
    ];
    for (const feature of features) {
      if (feature.halt) halts.push(() => feature.halt?.());
      stack.push(async () => feature.stop());
      await startFeature(feature);
      alive();
    }
    await ha.announced;
    await rules.started;
    await rulesAttached;
    // Started without them (no store to keep their promises): not "starting" any more.
    rulesPending = false;
    if (!rules.runtime) ha.rulesStarting(false);
    healthFile.watchMqtt(() => mqtt.connected);
    healthFile.watchDevices((at) => freshness.all(at));
    if (access) healthFile.watchRefusal(() => access.refusal()?.message);
    alive();
    started = true;
    return {
      get inventory() {
        return inventory();
      },
      cloudUrl: cloud?.url ?? "",
      mqttUrl,
      simulated: cloud?.simulated ?? false,
      storePath: config.store.path,
      brokerMoved,
      ...(demo && config.rules !== configured.rules && config.rules !== undefined ? { demoRules: config.rules } : {}),
      get webUrl() {
        return web.url === "" ? undefined : web.url;
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    if (options.signal?.aborted) throw new StartupStopped();
    throw error;
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
  }
}

/** What carries on when the cloud refuses the token and dongles are configured, by source. */
const CARRYING_ON = {
  auto: "The daemon carries on over the LAN with the dongles under local: live data, its history and the rules' reads go on, and changes to the inverters' settings and presets go over their dongles (not a passive one's); the long history, EV chargers, smart devices and the cloud's snapshots wait for the cloud.",
  local:
    "The daemon carries on over the LAN with the dongles under local (source: local): live data goes on, and changes to the inverters' settings and presets go over their dongles (not a passive one's).",
} as const;

/** Each tracked device's path, by device id, for bridge/health and the web page. */
function pathsById(auto: AutoSource): Record<string, DevicePathHealth> {
  const out: Record<string, DevicePathHealth> = {};
  for (const [serial, state] of Object.entries(auto.choice.states()))
    out[deviceIdOf(serial)] = { ...state, since: new Date(state.since).toISOString() };
  return out;
}

/** A record by serial keyed by device id instead. */
function byDeviceId<T>(bySerial: Readonly<Record<string, T>>): Record<string, T> {
  return Object.fromEntries(Object.entries(bySerial).map(([serial, value]) => [deviceIdOf(serial), value]));
}

/** What the health reports say of the cloud when none is configured (a LAN-only daemon). */
const NO_CLOUD = { url: "", token: "", simulated: false };

function cloudClient(
  cloud: { readonly url: string; readonly token: string },
  config: Config,
  clock: Clock,
  onAnswer: (endpoint: string, status: number | undefined) => void,
): CloudClient {
  return new CloudClient({
    onRequest: (event) => onAnswer(event.endpoint, event.status),
    baseUrl: cloud.url,
    token: cloud.token,
    context: config.cloud.context,
    requestsPerMinute: config.cloud.requests_per_minute,
    pageSize: config.cloud.page_size,
    timeoutMs: config.cloud.timeout,
    clock,
  });
}

/** Starts a feature; a broker that refuses the connection is a configuration error (exit 2). */
async function startFeature(feature: Feature): Promise<void> {
  try {
    await feature.start();
  } catch (error) {
    throw error instanceof MqttRefusedError ? new StartupError(error.message, 2) : error;
  }
}

/** The daemon's clock also sets the demo house's simulated start. */
async function startCloud(config: Config, logger: Logger, stack: (() => Promise<void>)[], clock: Clock) {
  if (config.cloud.url) {
    if (!config.cloud.token) {
      throw new StartupError(
        "cloud.url is set but cloud.token is not: create an API token in the portal and set cloud.token (or ENERGY2MQTT_CLOUD_TOKEN)",
        2,
      );
    }
    return { url: config.cloud.url, token: config.cloud.token, simulated: false };
  }
  // Loaded only when needed: a real installation never pays for the simulator.
  const { demoHouseScenario, startSimulator } = await import("./simulator/index.js");
  const start = clock.now();
  const simulator = await startSimulator({ port: 0, scenario: demoHouseScenario(start, DEMO_HISTORY_DAYS), start });
  stack.push(() => simulator.stop());
  const token = simulator.tokens.owner;
  if (!token) throw new StartupError("the demo scenario has no owner actor", 1);
  logger.info(
    { url: simulator.url, store: config.store.path },
    "no cloud configured: started the built-in simulator (demo house), with its own store",
  );
  return { url: simulator.url, token, simulated: true };
}

/** The embedded broker's first choice; when it is taken the next free port is used, and the banner says so. */
export const EMBEDDED_BROKER_PORT = 1883;

async function startBroker(
  config: Config,
  logger: Logger,
  stack: (() => Promise<void>)[],
): Promise<{ url: string; moved: boolean }> {
  if (config.mqtt.url) return { url: config.mqtt.url, moved: false };
  // Loaded only when needed, like the simulator: a daemon with its own broker never pays for it.
  const { startEmbeddedBroker } = await import("./broker/index.js");
  const { username, password } = config.mqtt;
  const broker = await startEmbeddedBroker({
    host: "127.0.0.1",
    port: EMBEDDED_BROKER_PORT,
    portAttempts: 20,
    ...(username !== undefined ? { credentials: { username, password: password ?? "" } } : {}),
  });
  stack.push(() => broker.close());
  const moved = broker.port !== EMBEDDED_BROKER_PORT;
  const where = moved ? `on port ${broker.port} (${EMBEDDED_BROKER_PORT} is taken)` : `on port ${broker.port}`;
  logger.info(
    { url: broker.url, credentials: username !== undefined },
    username !== undefined
      ? `no MQTT broker configured: started the embedded broker ${where}; it takes only mqtt.username and mqtt.password`
      : `no MQTT broker configured: started the embedded broker ${where} (anonymous clients welcome; set mqtt.username and mqtt.password to require them)`,
  );
  return { url: broker.url, moved };
}

function mqttTlsOrExit(config: Config, configFile: string | undefined): MqttTls | undefined {
  try {
    return readMqttTls(config.mqtt, configFile);
  } catch (error) {
    if (error instanceof MqttTlsFileError) throw new StartupError(error.message, 2);
    throw error;
  }
}

function openStoreOrWarn(config: Config, logger: Logger): Store | undefined {
  try {
    return openStore(config.store.path);
  } catch (error) {
    logger.error(
      { err: (error as Error).message },
      "the store could not be opened: running without history or rules, and every change is refused until the audit log can be written",
    );
    return undefined;
  }
}

/**
 * The token's first request. A refusal (401/403: a wrong token or no API subscription) stops the
 * daemon with the likelier cause, unless dongles carry on (`carryingOn`): then a refusal or a
 * cloud that is away is logged with what goes on.
 */
async function checkToken(
  client: CloudClient,
  access: CloudAccess | undefined,
  carryingOn: string | undefined,
  logger: Logger,
): Promise<void> {
  try {
    await client.account.get({ priority: "command" });
  } catch (error) {
    const refused = error instanceof AuthenticationError || error instanceof ForbiddenError;
    // A cloud that refuses the token or is away: the dongles carry on.
    if (error instanceof CloudError && carryingOn) {
      // A 401 was logged as it came; one 403 alone is not yet a refusal for the watch, so it is told here.
      if (!access?.refusal())
        logger.warn(
          `${refused ? (access?.refusedAtStart(error.status ?? 403) ?? error.message) : `the cloud did not answer: ${error.message}.`} ${carryingOn}`,
        );
      return;
    }
    if (refused) throw new StartupError(access?.refusedAtStart(error.status ?? 401) ?? error.message, 2);
    if (error instanceof SubscriptionRequiredError) throw new StartupError(error.message, 1);
    throw error;
  }
}

/**
 * Used when the store cannot be opened: no change is made without its audit row, so each change
 * tries to open the store again and is refused while it cannot.
 */
function reopeningAudit(config: Config, logger: Logger, stack: (() => Promise<void>)[]): AuditLog {
  const audit = new ReopeningAuditLog(config.store.path, () =>
    logger.warn(
      { store: config.store.path },
      "the store can be written again: changes are taken and audited; history and the rules start at the next restart",
    ),
  );
  stack.push(async () => audit.close());
  return audit;
}
