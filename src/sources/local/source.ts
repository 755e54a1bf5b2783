import type { Logger } from "../../log/log.js";
import { type Clock, later } from "../../time/index.js";
import type { DeviceSource } from "../ports.js";
import type { MissingBlock } from "./block-health.js";
import { type Identified, LocalDongle, type WrongDevice } from "./dongle.js";
import { warnOfChildSlots } from "./ems-children.js";
import { type Found, localInventory } from "./inventory.js";
import { localResources } from "./resources.js";

export interface LocalDongleConfig {
  readonly host: string;
  readonly port: number;
  readonly passive: boolean;
  /** Least time between two frames sent, ms (the session's default when left out). */
  readonly gap_ms?: number;
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
  /**
   * With `source: local` the LAN is all there is: when no dongle answers, discovery gives an empty
   * house (said in the log) rather than failing, and each dongle is announced once it answers.
   * Under `auto` the cloud carries on instead, so discovery fails and says so.
   */
  readonly runWithoutDongles?: boolean;
}

/** A device whose dongle's address answered for another device: its live data and changes do not go through it. */
export interface WrongDeviceEvent extends WrongDevice {
  /** The device the address was paired with (as the inventory spells it). */
  readonly serial: string;
  /** Whether the serial that answered is another device of this house's (the address is paired again by serial). */
  readonly known: boolean;
}

export interface LocalSource extends DeviceSource {
  /** Every configured dongle, in the configuration's order. */
  readonly dongles: readonly LocalDongle[];
  /**
   * The dongle a controller serial (inverter, gateway, EMS) answers on now: the first whose
   * address is paired with it (by the serial its answers carry), undefined when none is.
   */
  dongleOf(serial: string): LocalDongle | undefined;
  /** Tells `listener` each time a dongle's address starts answering for another device than its own; returns the unsubscription. */
  onWrongDevice(listener: (event: WrongDeviceEvent) => void): () => void;
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
  const tellChanged = (): void => {
    for (const listener of changed) listener();
  };
  const listeners = new Set<(event: WrongDeviceEvent) => void>();
  const dongles: LocalDongle[] = options.dongles.map(
    (config, index) =>
      new LocalDongle({
        ...config,
        onModelRead: tellChanged,
        // A dongle not identified yet that comes up: the devices are read again now, not at the next refresh.
        onConnected: () => {
          if (!identified.has(index)) tellChanged();
        },
        clock: options.clock,
        timeoutMs: options.timeoutMs ?? 5_000,
        ...(options.logger ? { logger: options.logger } : {}),
        ...(options.random ? { random: options.random } : {}),
        onWrongDevice: (wrong) => wrongDevice(index, wrong),
      }),
  );
  /** What each dongle told at its last identification, by the configuration's index. */
  const identified = new Map<number, Identified>();
  /**
   * Each controller the LAN identified (inverter, EMS, gateway), by upper-case serial, with what
   * its dongle told then: the inventory's devices, whichever address answers for them now.
   */
  const devicesBySerial = new Map<string, { index: number; identified: Identified; serial: string }>();
  const remember = (index: number, one: Identified): void => {
    identified.set(index, one);
    const controller = one.devices[0];
    if (controller)
      devicesBySerial.set(controller.serial.toUpperCase(), { index, identified: one, serial: controller.serial });
  };
  /** Unpaired dongles being asked who answers at their address: paired with nobody until that is settled. */
  const probing = new Set<LocalDongle>();
  /** The dongle whose address answers for `serial` now: the first paired with it. */
  const pairedTo = (serial: string): LocalDongle | undefined => {
    const wanted = serial.toUpperCase();
    return dongles.find((dongle) => dongle.pairedSerial === wanted && !probing.has(dongle));
  };
  /** How the inventory spells a serial the answers carried (they carry it in upper case). */
  const spelled = (serial: string): string => devicesBySerial.get(serial)?.serial ?? serial;

  /**
   * A dongle's address answered for another device. A device of this house's: the address is
   * no longer trusted for its old device; it is unpaired, and paired again by serial (with the
   * device that answers, should no other address answer for it) when next asked. A serial no
   * device has: the address stays paired and every answer is refused until its own device
   * answers again.
   */
  const wrongDevice = (index: number, wrong: WrongDevice): void => {
    const dongle = dongles[index];
    if (!dongle) return;
    const known = wrong.answered !== wrong.expected && devicesBySerial.has(wrong.answered);
    const serial = spelled(wrong.expected);
    options.logger?.warn(
      { dongle: wrong.where, expected: serial, answered: spelled(wrong.answered) },
      `the dongle at ${wrong.where} (local[${index}]) ${wrong.why}: ${
        known
          ? `its address now reaches another inverter of this house: nothing of ${serial}'s is read or written through it, and it is paired again by the serial it answers with`
          : wrong.answered !== wrong.expected
            ? `a serial no device of this house has: its answers are refused (no live data for ${serial}, no changes through it) until ${serial} answers there again`
            : `its answers are refused (no live data for ${serial}, no changes through it) until ${serial} answers there again`
      }`,
    );
    if (known) dongle.unpair();
    for (const listener of listeners) listener({ ...wrong, serial, known });
  };

  /** Asks each unpaired address who answers there, and pairs it by serial when no other address answers for that device. */
  const repair = async (signal?: AbortSignal): Promise<void> => {
    for (const [index, dongle] of dongles.entries()) {
      if (dongle.pairedSerial !== undefined || !identified.has(index)) continue;
      probing.add(dongle);
      try {
        const answers = await dongle.whoAnswers(signal);
        if (answers === undefined) continue;
        if (dongles.some((one) => one !== dongle && one.pairedSerial === answers && !one.answersForAnother)) {
          // A second address of a device that has its own: left unpaired, asked again later.
          dongle.unpair();
          continue;
        }
        remember(index, await dongle.identify(signal));
        options.logger?.warn(
          { dongle: dongle.where, serial: spelled(answers) },
          `the dongle at ${dongle.where} (local[${index}]) answers for ${spelled(answers)}: paired with it by serial`,
        );
      } catch {
        // Not answering, or the poll was stopped: asked again later.
        dongle.unpair();
      } finally {
        probing.delete(dongle);
      }
    }
  };
  let repairing: Promise<void> | undefined;

  /**
   * The dongle to ask for `serial`: the one paired with it; when none is (its address moved),
   * the unpaired addresses are asked who answers there, and one that answers for it, or for a
   * device no other address answers for, is paired again by serial.
   */
  const dongleFor = async (serial: string, signal?: AbortSignal): Promise<LocalDongle> => {
    const paired = pairedTo(serial);
    if (paired) return paired;
    repairing ??= repair(signal).finally(() => {
      repairing = undefined;
    });
    await repairing;
    const found = pairedTo(serial);
    if (found) return found;
    signal?.throwIfAborted();
    throw new LocalSourceError(
      `no dongle under local: answers for ${serial} now (its address answered for another device): it is asked again at the next poll`,
    );
  };
  // A dongle that is away at start-up does not hold the others back: it is asked again at the next refresh.
  const discoverMs = (options.timeoutMs ?? 5_000) * 6;
  const limit = Math.max(1, dongles.length) * POLLS_PER_MINUTE_PER_DONGLE;
  let warnings: string[] = [];
  return {
    dongles,
    dongleOf: pairedTo,
    onWrongDevice(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
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
            remember(index, { ...known, detected: dongle.model, devices: dongle.devices() });
          if (identified.has(index)) return;
          try {
            remember(index, await withinDeadline(dongle.identify(signal), options.clock, discoverMs, dongle.where));
          } catch (error) {
            failures.push(
              `the dongle at ${dongle.where} (local[${index}]) did not answer: ${(error as Error).message}; check its host and port, and that it is on`,
            );
          }
        }),
      );
      signal?.throwIfAborted();
      if (identified.size === 0 && !(options.runWithoutDongles && dongles.length > 0))
        throw new LocalSourceError(failures.join("; ") || "no dongle is configured under local:");
      if (identified.size === 0)
        logger?.warn(
          `no dongle under local: answered yet (${failures.join("; ")}): the daemon keeps running, asks them again, and announces each device once its dongle answers`,
        );
      else for (const failure of failures) logger?.warn(failure);
      // Each device once, as its dongle last told it, whichever address answers for it now.
      const found: Found[] = [...devicesBySerial.values()]
        .sort((a, b) => a.index - b.index)
        .map(({ index, identified: one }) => {
          const passive = dongles[index]?.options.passive ?? true;
          return {
            index,
            identified: one,
            writable: options.writes === true && !passive,
            ...(options.writes && passive ? { reason: PASSIVE_NO_WRITES } : {}),
          };
        });
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
        const dongle = pairedTo(inverter.serial);
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
      localResources(
        {
          dongleFor,
          dongleOf: pairedTo,
          identified: (serial) => {
            const device = devicesBySerial.get(serial.toUpperCase());
            return device && dongles[device.index];
          },
          now,
          timezone: options.timezone,
          liveMs: options.liveMs ?? 10_000,
        },
        inventory,
        poll,
      ),
    missingBlocks() {
      const out: Record<string, MissingBlock[]> = {};
      for (const { serial } of devicesBySerial.values()) {
        const missing = pairedTo(serial)?.missingBlocks() ?? [];
        if (missing.length > 0) out[serial] = missing;
      }
      return out;
    },
    close() {
      for (const dongle of dongles) dongle.close();
    },
  };
}
