import type { Logger } from "../../log.js";
import { type Clock, later } from "../../time/index.js";
import type { DeviceSource } from "../ports.js";
import type { MissingBlock } from "./block-health.js";
import { type Identified, LocalDongle } from "./dongle.js";
import { warnOfChildSlots } from "./ems-children.js";
import { type Found, localInventory } from "./inventory.js";
import { localResources } from "./resources.js";

export interface LocalDongleConfig {
  readonly host: string;
  readonly port: number;
  readonly passive: boolean;
}

export interface LocalSourceOptions {
  readonly dongles: readonly LocalDongleConfig[];
  /** The sessions' pacing, timeouts and reconnects run on it: a clock that moves (the system clock in production). */
  readonly clock: Clock;
  /** IANA zone the history's days are in; the LAN does not tell it. */
  readonly timezone: string;
  /** Why the devices found refuse changes when the LAN does not write; NO_LAN_WRITES by default. */
  readonly noControlReason?: string;
  /** Whether settings are changed over the LAN (through active dongles); off, devices refuse changes with `noControlReason`. */
  readonly writes?: boolean;
  /** Live polls' interval, ms; 10 s by default. */
  readonly liveMs?: number;
  /** How long one request waits for its answer. */
  readonly timeoutMs?: number;
  readonly logger?: Logger;
  /** Session jitter (0 <= x < 1), pinned in tests. */
  readonly random?: () => number;
}

export interface LocalSource extends DeviceSource {
  /** Every configured dongle, in the configuration's order. */
  readonly dongles: readonly LocalDongle[];
  /** The dongle a controller serial (inverter, gateway, EMS) answers on, once discovered. */
  dongleOf(serial: string): LocalDongle | undefined;
  /** The warnings of the last discovery: an EMS's inverter whose own slot 1 would override the EMS. */
  readonly warnings: readonly string[];
  /** The blocks each controller's dongle leaves unanswered now, by controller serial (none listed: all answer). */
  missingBlocks(): Record<string, MissingBlock[]>;
  /** Closes every session. */
  close(): void;
}

export class LocalSourceError extends Error {
  override readonly name = "LocalSourceError";
}

/** `work`, or a LocalSourceError once `ms` have passed on the clock (the work goes on, unheeded). */
function withinDeadline<T>(work: Promise<T>, clock: Clock, ms: number, where: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const cancel = later(clock, ms, () =>
      reject(new LocalSourceError(`no answer from ${where} within ${ms} ms; it is asked again at the next refresh`)),
    );
    work.then(
      (value) => {
        cancel();
        resolve(value);
      },
      (error: unknown) => {
        cancel();
        reject(error);
      },
    );
  });
}

/** Why a device behind a passive dongle refuses changes. */
const PASSIVE_NO_WRITES =
  "its dongle is configured passive (it only listens): set passive: false under local: to change settings over the LAN";

/** Each dongle carries one request at a time, a poll cycle takes a second or more: at most this many polls a minute each. */
const POLLS_PER_MINUTE_PER_DONGLE = 60;

/**
 * The house over the LAN: a session per configured dongle, discovery from its identity registers
 * (src/local/registers/model.ts) and live polls of its banks, into the fetched shape the cloud's
 * answers make. A dongle that cannot be reached at discovery fails it with what to check; a
 * passive dongle asks nothing and decodes what it hears another client ask for.
 */
export function localSource(options: LocalSourceOptions): LocalSource {
  const changed = new Set<() => void>();
  const dongles = options.dongles.map(
    (config) =>
      new LocalDongle({
        ...config,
        onModelRead: () => {
          for (const listener of changed) listener();
        },
        clock: options.clock,
        timeoutMs: options.timeoutMs ?? 5_000,
        ...(options.logger ? { logger: options.logger } : {}),
        ...(options.random ? { random: options.random } : {}),
      }),
  );
  const bySerial = new Map<string, LocalDongle>();
  const identified = new Map<number, Identified>();
  // A dongle that is away at start-up does not hold the others back: it is asked again at the next refresh.
  const discoverMs = (options.timeoutMs ?? 5_000) * 6;
  const limit = Math.max(1, dongles.length) * POLLS_PER_MINUTE_PER_DONGLE;
  let warnings: string[] = [];
  return {
    dongles,
    dongleOf: (serial) => bySerial.get(serial),
    get warnings() {
      return warnings;
    },
    budget: {
      windowMs: 60_000,
      liveAllowance: () => limit,
      limit: () => limit,
      expectLive: () => undefined,
    },
    async discover(discoverOptions = {}) {
      const { logger, signal } = discoverOptions;
      // The hardware behind a dongle does not change while the daemon runs: a refresh asks only
      // the dongles not yet identified.
      const failures: string[] = [];
      await Promise.all(
        dongles.map(async (dongle, index) => {
          const known = identified.get(index);
          // Told from its banks at first, its model read from HR 0 since: what discovery says follows.
          if (known?.detected.from === "banks" && dongle.model?.from === "identity")
            identified.set(index, { ...known, detected: dongle.model, devices: dongle.devices() });
          if (identified.has(index)) return;
          try {
            identified.set(
              index,
              await withinDeadline(dongle.identify(signal), options.clock, discoverMs, dongle.where),
            );
          } catch (error) {
            failures.push(
              `the dongle at ${dongle.where} (local[${index}]) did not answer: ${(error as Error).message}; check its host and port, and that it is on`,
            );
          }
        }),
      );
      signal?.throwIfAborted();
      if (identified.size === 0)
        throw new LocalSourceError(failures.join("; ") || "no dongle is configured under local:");
      for (const failure of failures) logger?.warn(failure);
      const found: Found[] = [...identified]
        .sort(([a], [b]) => a - b)
        .map(([index, one]) => {
          const passive = dongles[index]?.options.passive ?? true;
          return {
            index,
            identified: one,
            writable: options.writes === true && !passive,
            ...(options.writes && passive ? { reason: PASSIVE_NO_WRITES } : {}),
          };
        });
      for (const { index, identified: one } of found) {
        const dongle = dongles[index];
        const controller = one.devices[0];
        if (dongle && controller) bySerial.set(controller.serial, dongle);
      }
      logger?.info(
        {
          dongles: found.map(({ index, identified: one }) => ({
            at: dongles[index]?.where,
            model: one.detected.model,
            serial: one.devices[0]?.serial,
            roundTripMs: one.roundTripMs,
          })),
        },
        "discovered the dongles on the LAN",
      );
      const inventory = localInventory(found, options.timezone, options.noControlReason);
      const children = inventory.inverters.flatMap((inverter) => {
        const dongle = bySerial.get(inverter.serial);
        return inverter.emsSerial !== undefined && dongle
          ? [{ serial: inverter.serial, ems: inverter.emsSerial, dongle }]
          : [];
      });
      warnings = await warnOfChildSlots(children, logger, signal);
      return inventory;
    },
    onDevicesChanged(listener) {
      changed.add(listener);
      return () => changed.delete(listener);
    },
    resources: (inventory, poll, now) =>
      localResources({ dongles: bySerial, now, liveMs: options.liveMs ?? 10_000 }, inventory, poll),
    missingBlocks() {
      const out: Record<string, MissingBlock[]> = {};
      for (const [serial, dongle] of bySerial) {
        const missing = dongle.missingBlocks();
        if (missing.length > 0) out[serial] = missing;
      }
      return out;
    },
    close() {
      for (const dongle of dongles) dongle.close();
    },
  };
}
