import { StartupError } from "../../app/errors.js";
import type { Lifecycle } from "../../app/lifecycle.js";
import type { EventBus } from "../../bus/event-bus.js";
import {
  AuthenticationError,
  CloudClient,
  CloudError,
  ForbiddenError,
  RateBudget,
  SubscriptionRequiredError,
} from "../../cloud/index.js";
import type { Config } from "../../config/index.js";
import { DEMO_HISTORY_DAYS } from "../../demo/store.js";
import type { Logger } from "../../log/log.js";
import { type Clock, later } from "../../time/index.js";
import { CloudAccess } from "./access.js";
import { type CloudPath, cloudPath } from "./path.js";

/** The cloud the daemon talks to: the configured one, or the built-in simulator's. */
export interface CloudTarget {
  readonly url: string;
  readonly token: string;
  readonly simulated: boolean;
}

/** What the health reports say of the cloud when none is configured (a LAN-only daemon). */
export const NO_CLOUD: CloudTarget = { url: "", token: "", simulated: false };

/** Once a stop begins, cloud calls under way get this long to finish before they are aborted. */
const CLOUD_GRACE_MS = 400;

/** What carries on when the cloud refuses the token and dongles are configured, by source. */
const CARRYING_ON = {
  auto: "The daemon carries on over the LAN with the dongles under local: live data, its history and the rules' reads go on, and changes to the inverters' settings and presets go over their dongles (not a passive one's); the long history, EV chargers, smart devices and the cloud's snapshots wait for the cloud.",
  local:
    "The daemon carries on over the LAN with the dongles under local (source: local): live data goes on, and changes to the inverters' settings and presets go over their dongles (not a passive one's).",
} as const;

/**
 * The cloud to talk to, if any: reading over the LAN needs no cloud, and with none configured
 * there no demo house starts either. The daemon's clock also sets the demo house's simulated start.
 */
export async function startCloud(
  config: Config,
  logger: Logger,
  life: Lifecycle,
  clock: Clock,
): Promise<CloudTarget | undefined> {
  if (config.source === "local" && !config.cloud.url) return undefined;
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
  const { demoHouseScenario, startSimulator } = await import("../../simulator/index.js");
  const start = clock.now();
  const simulator = await startSimulator({ port: 0, scenario: demoHouseScenario(start, DEMO_HISTORY_DAYS), start });
  life.onStop(() => simulator.stop());
  const token = simulator.tokens.owner;
  if (!token) throw new StartupError("the demo scenario has no owner actor", 1);
  logger.info(
    { url: simulator.url, store: config.store.path },
    "no cloud configured: started the built-in simulator (demo house), with its own store",
  );
  return { url: simulator.url, token, simulated: true };
}

/** The cloud's client and its ports, how it answers the token, and the request budget the daemon shares. */
export interface CloudConnection {
  readonly client: CloudClient | undefined;
  /** The client's ports, for the daemon's sources. */
  readonly path: CloudPath | undefined;
  readonly access: CloudAccess | undefined;
  readonly budget: RateBudget;
}

/**
 * The cloud's client (closed with the daemon), its token checked by a first request. With dongles
 * to read, a cloud that refuses the token does not stop the daemon.
 */
export async function connectCloud(options: {
  readonly cloud: CloudTarget | undefined;
  readonly config: Config;
  readonly clock: Clock;
  readonly bus: EventBus;
  readonly logger: Logger;
  readonly life: Lifecycle;
  readonly withSources: boolean;
}): Promise<CloudConnection> {
  const { cloud, config, clock, bus, logger, life } = options;
  const carryingOn =
    config.source !== "cloud" && config.local.length > 0 && !options.withSources
      ? CARRYING_ON[config.source]
      : undefined;
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
    life.onHalt(() => {
      if (life.aborted && !life.started) client.close();
      else later(clock, CLOUD_GRACE_MS, () => client.close(), { background: true });
    });
    life.onStop(async () => client.close());
    life.alive();
    await checkToken(client, access, carryingOn, logger);
  }
  const budget =
    client?.http.budget ?? new RateBudget({ limit: config.cloud.requests_per_minute, windowMs: 60_000, clock });
  return { client, path: client && cloudPath(client), access, budget };
}

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
