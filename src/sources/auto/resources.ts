import { filter, interval, merge, type Observable } from "rxjs";
import type { Logger } from "../../log/log.js";
import type { Clock } from "../../time/index.js";
import { PathFailure } from "../../vocabulary/index.js";
import type { PollResult, Resource } from "../resource.js";
import type { PathChoice } from "./path-choice.js";

/** "inverter.live SD1" for either twin: what it fetches and whose (never its display name); undefined for a resource with no twin. */
export function pairKey(resource: Resource): string | undefined {
  return resource.of && `${resource.of.kind} ${resource.of.serial.toUpperCase()}`;
}

/** The device serial a resource is about, upper case; "" for one that names none. */
function serialOf(resource: Resource): string {
  return resource.of?.serial.toUpperCase() ?? "";
}

const isLive = (resource: Resource): boolean => resource.of !== undefined && LIVE.has(resource.of.kind);

/**
 * Resources whose answers are a device's live data: each poll goes by the device's path, and fails
 * over. An EV charger's status is its live data over OCPP (its meter and session follow it).
 */
const LIVE: ReadonlySet<string> = new Set(["inverter.live", "ems", "ev.status"]);

export class BothPathsFailedError extends Error {
  override readonly name = "BothPathsFailedError";
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export interface ComposeOptions {
  readonly choice: PathChoice;
  /** The live polls' interval while a device is on its dongle (poll.local); the clock that times them. */
  readonly lan: { readonly liveMs: number; readonly clock: Clock };
  readonly cloud: readonly Resource[];
  readonly local: readonly Resource[];
  readonly logger?: Logger;
}

/**
 * The resources of `source: auto`: a device's live data and counters come from one path at a
 * time (its path in `choice`), so nothing is fetched twice; what only the cloud has (fault
 * events, EV chargers, smart devices) stays on the cloud, and what only the LAN has (an EMS
 * child's own live data) on the LAN. Live twins are planned at the cloud's interval, so the polls
 * fit the cloud's budget whenever it carries them, and woken at poll.local while on the dongle.
 */
export function composeResources(options: ComposeOptions): Resource[] {
  const { choice } = options;
  const lan = new Map<string, Resource>();
  const lanOnly: Resource[] = [];
  const withDongle = new Set<string>();
  for (const resource of options.local) {
    const key = pairKey(resource);
    if (key === undefined) lanOnly.push(resource);
    else lan.set(key, resource);
    if (isLive(resource)) {
      withDongle.add(serialOf(resource));
      choice.track(serialOf(resource), true);
    }
  }
  const out: Resource[] = [];
  for (const cloud of options.cloud) {
    const key = pairKey(cloud);
    const twin = key === undefined ? undefined : lan.get(key);
    if (key !== undefined) lan.delete(key);
    const serial = serialOf(cloud);
    if (twin && isLive(cloud)) out.push(liveTwins(serial, cloud, twin, options), dongleProbe(serial, twin, options));
    else if (twin) out.push(following(serial, cloud, twin, choice));
    else if (withDongle.has(serial)) out.push(cloudOnly(serial, cloud, options));
    else out.push(cloud);
  }
  for (const onlyLan of [...lan.values(), ...lanOnly]) if (choice.allows(serialOf(onlyLan), "local")) out.push(onlyLan);
  return out;
}

function twinName(cloud: Resource): string {
  return `${cloud.name} (LAN or cloud)`;
}

/**
 * A device's live data: over its dongle while it is on the LAN, and over the cloud in the same
 * cycle when the dongle fails; on the cloud, the dongle is asked too (its answer not published)
 * so the device goes back once it has answered steadily, or at once when the cloud fails.
 */
function liveTwins(serial: string, cloud: Resource, local: Resource, options: ComposeOptions): Resource {
  const { choice, logger } = options;
  const overLan = lanPoll(serial, local, choice);
  // While on the dongle, polled at its own pace too (no rate limit); the cloud's budget never sees these.
  const onLan: Observable<unknown> = interval(options.lan.liveMs, options.lan.clock).pipe(
    filter(() => choice.pathOf(serial) === "local"),
  );
  return {
    name: twinName(cloud),
    devices: cloud.devices,
    ...(cloud.periodMs === undefined ? {} : { periodMs: cloud.periodMs }),
    triggers: cloud.triggers ? merge(cloud.triggers, onLan) : onLan,
    ...(cloud.extraPerHour === undefined ? {} : { extraPerHour: cloud.extraPerHour }),
    async poll(signal) {
      if (!choice.allows(serial, "cloud")) return overLan(signal);
      if (!choice.allows(serial, "local")) return cloud.poll(signal);
      if (choice.pathOf(serial) === "local") {
        try {
          return await overLan(signal);
        } catch (lanError) {
          signal.throwIfAborted();
          try {
            const result = await cloud.poll(signal);
            choice.use(serial, "cloud", `its dongle did not answer (${messageOf(lanError)})`);
            return result;
          } catch (cloudError) {
            throw new BothPathsFailedError(
              `neither path answered: the dongle (${messageOf(lanError)}), the cloud (${messageOf(cloudError)})`,
            );
          }
        }
      }
      const [fromCloud, fromLan] = await Promise.allSettled([cloud.poll(signal), overLan(signal)]);
      signal.throwIfAborted();
      if (fromCloud.status === "fulfilled") return fromCloud.value;
      if (fromLan.status === "fulfilled") {
        choice.use(serial, "local", `the cloud did not answer (${messageOf(fromCloud.reason)})`);
        return fromLan.value;
      }
      logger?.debug({ serial }, "auto: neither path answered");
      throw new BothPathsFailedError(
        `neither path answered: the cloud (${messageOf(fromCloud.reason)}), the dongle (${messageOf(fromLan.reason)})`,
      );
    },
  };
}

/** The device's live data over its dongle, its answer or failure told to the path choice. */
function lanPoll(serial: string, local: Resource, choice: PathChoice): (signal: AbortSignal) => Promise<PollResult> {
  return async (signal) => {
    try {
      const result = await local.poll(signal);
      choice.lanAnswered(serial);
      return result;
    } catch (error) {
      choice.lanFailed(serial);
      throw error;
    }
  };
}

/**
 * While a device is on the cloud, its dongle is asked at the LAN's own pace (poll.local), not
 * only at the cloud's: `auto.failback` then counts real answers, and the device is back on its
 * dongle within one LAN poll of it. The answer is not published (the cloud's is), and no cloud
 * request is made.
 */
function dongleProbe(serial: string, local: Resource, options: ComposeOptions): Resource {
  const { choice } = options;
  const onCloud = (): boolean => choice.pathOf(serial) === "cloud" && choice.allows(serial, "local");
  const overLan = lanPoll(serial, local, choice);
  return {
    name: `dongle probe of ${local.name}`,
    devices: [],
    triggers: interval(options.lan.liveMs, options.lan.clock).pipe(filter(onCloud)),
    async poll(signal) {
      if (!onCloud()) return {};
      try {
        await overLan(signal);
      } catch (error) {
        options.logger?.debug(
          { serial, err: messageOf(error) },
          "auto: the dongle of a device on the cloud did not answer",
        );
      }
      return {};
    },
  };
}

/**
 * A device's counters follow its live data's path; they never decide it. A twin that says when it
 * has news (an OCPP charger's meter values, pushed) is polled then too, while its path is the device's.
 */
function following(serial: string, cloud: Resource, local: Resource, choice: PathChoice): Resource {
  const onLocal = local.triggers?.pipe(filter(() => choice.pathOf(serial) === "local"));
  const triggers = cloud.triggers && onLocal ? merge(cloud.triggers, onLocal) : (cloud.triggers ?? onLocal);
  return {
    name: twinName(cloud),
    devices: cloud.devices,
    ...(cloud.periodMs === undefined ? {} : { periodMs: cloud.periodMs }),
    ...(triggers ? { triggers } : {}),
    ...(cloud.extraPerHour === undefined ? {} : { extraPerHour: cloud.extraPerHour }),
    poll: (signal) => (choice.pathOf(serial) === "local" ? local : cloud).poll(signal),
  };
}

/**
 * What only the cloud has, of a device whose dongle answers: while the device is on the LAN a
 * cloud that refuses or is away is the cloud's state (on bridge/health), not the device's, so
 * the device stays available and the answer is nothing new.
 */
function cloudOnly(serial: string, cloud: Resource, options: ComposeOptions): Resource {
  return {
    ...cloud,
    name: cloud.name,
    devices: cloud.devices,
    async poll(signal) {
      try {
        return await cloud.poll(signal);
      } catch (error) {
        if (!(error instanceof PathFailure) || options.choice.pathOf(serial) !== "local") throw error;
        options.logger?.debug(
          { serial, err: error.message },
          `${cloud.name}: the cloud did not answer; its device is on the LAN`,
        );
        return {};
      }
    },
  };
}
