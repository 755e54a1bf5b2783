import type { Config } from "../config/index.js";
import { withDemoRules } from "../demo/rules.js";
import { isDemo, withDemoStore } from "../demo/store.js";
import { historyFeature } from "../history/index.js";
import type { LogFeed, Logger } from "../log/log.js";
import { connectCloud, startCloud } from "../sources/cloud/index.js";
import { faultAnnouncements, type Inventory } from "../telemetry/index.js";
import type { Clock } from "../time/index.js";
import { startBroker } from "./build-broker.js";
import { buildBus, startHealthFile } from "./build-bus.js";
import { buildClock } from "./build-clock.js";
import { startEvcModbus } from "./build-evc-modbus.js";
import { buildGate } from "./build-gate.js";
import { buildGivtcpRest } from "./build-givtcp-rest.js";
import { buildHealth } from "./build-health.js";
import { buildInventory } from "./build-inventory.js";
import { startOcpp } from "./build-ocpp.js";
import { buildPublishing } from "./build-publishing.js";
import { buildRules, RulesStart } from "./build-rules.js";
import { buildSettingsBackup } from "./build-settings-backup.js";
import { buildSources, type GivenSources } from "./build-sources.js";
import { buildStore } from "./build-store.js";
import { buildWeb } from "./build-web.js";
import { StartupError, StartupStopped } from "./errors.js";
import { Lifecycle } from "./lifecycle.js";
import { readStartFiles } from "./read-start-files.js";
import { startFeatures } from "./start-features.js";

export { EMBEDDED_BROKER_PORT } from "./build-broker.js";
export { StartupError, StartupStopped };

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
  /** GivTCP's REST API's base URL per inverter serial, when `givtcp_rest` is configured. */
  readonly givtcpRestUrls?: Readonly<Record<string, string>>;
  /** Set when the demo house runs its own rules (no rules file configured): that file. */
  readonly demoRules?: string;
  stop(): Promise<void>;
}

export interface StartAppOptions {
  readonly configFile?: string;
  readonly feed?: LogFeed;
  readonly signal?: AbortSignal;
  /** The one clock every part reads and sets its timers on (`run` gives the system's). */
  readonly clock: Clock;
  /**
   * Another path to the house for discovery, polls, the control gate and (when given) the gap
   * backfill, e.g. an in-memory one in tests; the cloud by default.
   */
  readonly sources?: GivenSources;
}

/**
 * The composition root: wires cloud, store, control, telemetry and Home Assistant, starting
 * the embedded simulator and broker when nothing is configured, and stops them in reverse.
 * Each step is a builder in `app/`, called in the order the parts must start.
 */
export async function startApp(
  configured: Config,
  logger: Logger,
  version: string,
  options: StartAppOptions,
): Promise<App> {
  // The demo house (no cloud, no LAN, no path of the caller's): its own store, and its own rules
  // unless the configuration names some.
  const demo = !options.sources && isDemo(configured);
  const config = demo ? withDemoRules(withDemoStore(configured)) : withDemoStore(configured);
  const { clock } = options;
  const withSources = options.sources !== undefined;
  const life = new Lifecycle(logger, options.signal);
  return life.run(async () => {
    const { rulesFile, tls } = await readStartFiles(config, options.configFile, withSources);
    const cloud = await startCloud(config, logger, life, clock);
    life.alive();
    const { url: mqttUrl, moved: brokerMoved } = await startBroker(config, logger, life);
    life.alive();
    const { store, audit } = buildStore(config, logger, life);
    const bus = buildBus(logger);
    const healthFile = startHealthFile(config, logger, clock, life, bus);
    const { client, path, access, budget } = await connectCloud({
      cloud,
      config,
      clock,
      bus,
      logger,
      life,
      withSources,
    });
    const ocpp = await startOcpp({ config, configFile: options.configFile, store, clock, logger, life });
    life.alive();
    const modbus = startEvcModbus({ config, clock, logger, life });
    const sources = buildSources({
      config,
      cloud: path,
      given: options.sources,
      bus,
      logger,
      clock,
      life,
      ocpp: ocpp?.chargers,
      modbus,
    });
    const { source, control } = sources;
    const { first, devices, inventory, freshness } = await buildInventory({
      config,
      source,
      rulesFile,
      bus,
      logger,
      clock,
    });
    life.alive();
    const { gate, devicesById } = buildGate({ config, control, audit, store, inventory, bus, logger, clock, life });
    const clocks = buildClock({ config, gate, control, inventory, bus, logger, clock });
    const { topics, telemetry, mqtt, ha } = buildPublishing({
      config,
      version,
      mqttUrl,
      tls,
      source,
      account: client ?? (sources.lanControl ?? sources.noWrites).cloudOnly,
      gate,
      syncClock: (serial, requester) => clocks.watch.syncNow(serial, requester),
      devicesById,
      inventory,
      bus,
      logger,
      clock,
    });
    const rulesStart = new RulesStart(ha, rulesFile);
    const history =
      store && historyFeature({ config, source: sources.historySource, store, bus, inventory, logger, clock });
    const health = buildHealth({
      config,
      version,
      cloud,
      access,
      budget,
      topics,
      mqtt,
      inventory,
      freshness,
      store,
      history,
      rules: rulesFile !== undefined,
      gate,
      feed: options.feed,
      sources,
      bus,
      logger,
      clock,
    });
    const rules = buildRules({ config, rulesFile, gate, store, first, mqtt, start: rulesStart, bus, logger, clock });
    const web = buildWeb({
      config,
      configFile: options.configFile,
      version,
      cloud,
      access,
      budget,
      store,
      inventory,
      rulesFile,
      rules,
      rulesStart,
      gate,
      sources,
      bus,
      logger,
      clock,
    });
    const givtcpRest = buildGivtcpRest({ config, gate, inventory, bus, logger, version });
    const settingsBackup = buildSettingsBackup({ store, control, inventory, logger, clock });
    // Consumers first, the producers of events (telemetry, the device lists) last, so that nothing
    // they say is missed; stopped in reverse.
    await startFeatures(
      [
        mqtt,
        ...(history ? [history] : []),
        ...ha.features,
        health,
        web,
        ...(givtcpRest ? [givtcpRest] : []),
        rules,
        ...(settingsBackup ? [settingsBackup] : []),
        clocks.feature,
        faultAnnouncements({ bus, logger }),
        telemetry,
        devices,
      ],
      life,
    );
    await rulesStart.settled(rules);
    healthFile.watchMqtt(() => mqtt.connected);
    healthFile.watchDevices((at) => freshness.all(at));
    if (access) healthFile.watchRefusal(() => access.refusal()?.message);
    life.alive();
    life.started = true;
    return appOf({
      config,
      configured,
      demo,
      cloud,
      mqttUrl,
      brokerMoved,
      inventory,
      web,
      givtcpRest,
      stop: life.stopAll,
    });
  });
}

/** What the caller sees of the running daemon. */
function appOf(parts: {
  readonly config: Config;
  readonly configured: Config;
  readonly demo: boolean;
  readonly cloud: { readonly url: string; readonly simulated: boolean } | undefined;
  readonly mqttUrl: string;
  readonly brokerMoved: boolean;
  readonly inventory: () => Inventory;
  readonly web: { readonly url: string };
  readonly givtcpRest: { readonly urls: Readonly<Record<string, string>> } | undefined;
  readonly stop: () => Promise<void>;
}): App {
  const { config, configured, demo, cloud, inventory, web } = parts;
  return {
    get inventory() {
      return inventory();
    },
    cloudUrl: cloud?.url ?? "",
    mqttUrl: parts.mqttUrl,
    simulated: cloud?.simulated ?? false,
    storePath: config.store.path,
    brokerMoved: parts.brokerMoved,
    ...(demo && config.rules !== configured.rules && config.rules !== undefined ? { demoRules: config.rules } : {}),
    get webUrl() {
      return web.url === "" ? undefined : web.url;
    },
    get givtcpRestUrls() {
      return parts.givtcpRest?.urls ?? {};
    },
    stop: parts.stop,
  };
}
