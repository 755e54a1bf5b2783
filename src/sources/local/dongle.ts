import type { ControlMap, Detected, Frame } from "../../local/index.js";
import { ChainDecoder, checkWritable, type DecodedDevice, type Read, SessionError } from "../../local/index.js";
import { later } from "../../time/index.js";
import { BlockHealth, blockName, type MissingBlock } from "./block-health.js";
import { LocalDongleError, type WrongDevice, WrongDeviceError } from "./dongle-errors.js";
import { DongleLink } from "./dongle-link.js";
import type { DongleOptions } from "./dongle-options.js";
import { whereOf } from "./dongle-options.js";
import { DonglePairing } from "./dongle-pairing.js";
import {
  BCU_BANK,
  CONTROLLER,
  DETECTION_BANKS,
  hasHvStack,
  hasLvPacks,
  IDENTITY,
  LV_BATTERY_ADDRESSES,
  liveReads,
  lvPackBank,
  partsOf,
} from "./reads.js";

export { LocalDongleError, type WrongDevice, WrongDeviceError } from "./dongle-errors.js";
export type { DongleOptions } from "./dongle-options.js";

/** What a dongle's chain showed at discovery. */
export interface Identified {
  readonly dongleSerial: string;
  readonly detected: Detected;
  /** The controller first (inverter, EMS or gateway), then its children and battery modules, as decode.ts lists them. */
  readonly devices: readonly DecodedDevice[];
  /** Ms from asking for the identity registers to their answer; undefined when passive. */
  readonly roundTripMs: number | undefined;
}

/** A dongle that answered any block this recently is alive: a silent block is then the block's own. */
const ALIVE_MS = 60_000;

/**
 * One configured dongle: a session (src/local/session.ts) whose every frame, asked for or not,
 * feeds one decoder, so an active dongle's answers and a passive one's overheard answers go the
 * same way. The session never gives up: a dongle that was away comes back by itself, and reads
 * while it is away fail at once (src/local/session.ts says when the next attempt is).
 */
export class LocalDongle {
  private readonly link: DongleLink;
  private readonly pairing: DonglePairing;
  private decoder = new ChainDecoder();
  private dongleSerial = "";
  /** When an answer from the controller was last heard (clock ms), for a passive dongle's polls. */
  private heardAt: number | undefined;
  private listeners = new Set<() => void>();
  private detected: Detected | undefined;
  private health: BlockHealth;
  /** When any block last answered (clock ms). */
  private answeredAt: number | undefined;
  /** How long the first request that was answered took, asked to answered. */
  private firstRoundTripMs: number | undefined;
  /** Set during a poll: its blocks' misses, counted once the poll shows the dongle answers. */
  private pollMisses: { read: Read; why: string }[] | undefined;

  constructor(readonly options: DongleOptions) {
    this.health = new BlockHealth(() => options.clock.now());
    this.link = new DongleLink(options, (frame) => this.heard(frame));
    this.pairing = new DonglePairing(
      options,
      () => this.link.connections,
      () => this.health.due(IDENTITY),
    );
  }

  /** The blocks that do not answer now, for `bridge/health`. */
  missingBlocks(): MissingBlock[] {
    return this.health.missing();
  }

  /** The blocks whose last ask went unanswered while others answered, for `check`. */
  unansweredBlocks(): string[] {
    return this.health.unanswered();
  }

  get where(): string {
    return whereOf(this.options);
  }

  /**
   * Connects, detects the model and reads what discovery needs: identity, one live poll and the
   * battery banks. A block that does not answer is skipped (and asked again later); without the
   * identity bank the model is told from the banks that answer.
   */
  async identify(signal?: AbortSignal): Promise<Identified> {
    let roundTripMs: number | undefined;
    if (this.options.passive) {
      await this.hear(signal);
    } else {
      const identity = await this.tryRead(IDENTITY, signal);
      if (!identity) await this.detectFromBanks(signal);
      roundTripMs = this.firstRoundTripMs;
      if (!identity && this.heardAt === undefined)
        throw new LocalDongleError(
          `no block answered at the dongle at ${this.where}: neither its identity (${blockName(IDENTITY)}) nor any live bank`,
        );
      const detected = this.decoder.detect();
      await this.readEach(liveReads(detected), signal);
      if (hasLvPacks(detected)) await this.probePacks(signal);
      if (hasHvStack(detected)) await this.tryRead(BCU_BANK, signal);
    }
    const detected = this.decoder.detect();
    this.detected = detected;
    const devices = this.decoder.devices();
    this.pairing.afterDiscovery(devices[0]);
    return { dongleSerial: this.dongleSerial, detected, devices, roundTripMs };
  }

  /** One live poll: the controller's banks, then its devices as decoded now; a passive dongle gives what it heard since `since`. */
  async poll(signal: AbortSignal, since?: number): Promise<readonly DecodedDevice[] | undefined> {
    if (this.options.passive) {
      this.link.ensure();
      if (this.heardAt === undefined || (since !== undefined && this.heardAt <= since)) return undefined;
      return this.decoder.devices();
    }
    const detected = this.detected ?? this.decoder.detect();
    // Told from the banks: the identity bank is asked again (as rarely as any missing block) until
    // it answers. On a new connection it is asked once too: its device type must be the paired one's.
    const reads =
      detected.from === "banks" || (this.pairing.typeCheckable() && !this.pairing.typedOnThisConnection())
        ? [IDENTITY, ...liveReads(detected)]
        : liveReads(detected);
    const answered = await this.readEach(reads, signal);
    if (detected.from === "banks") this.redetect();
    if (answered === 0) throw new LocalDongleError(`no block of the dongle at ${this.where} answered this poll`);
    return this.decoder.devices();
  }

  /** The controller's model as discovery found it; undefined before. */
  get model(): Detected | undefined {
    return this.detected;
  }

  /** Reads `count` holding registers of the controller from `base`. */
  readHolding(base: number, count: number, signal?: AbortSignal): Promise<number[]> {
    return this.read({ address: CONTROLLER, function: 3, base, count }, signal);
  }

  /**
   * Writes one holding register of the controller (0x06), checked against the model's allowlist
   * first: a refused register throws a ControlMapError and nothing is framed or sent.
   */
  async writeHolding(map: ControlMap, register: number, value: number, signal?: AbortSignal): Promise<void> {
    checkWritable(map, register);
    if (this.options.passive)
      throw new LocalDongleError(
        `the dongle at ${this.where} is passive (it only listens): set passive: false under local: to change settings over the LAN`,
      );
    signal?.throwIfAborted();
    await this.verify(signal);
    const before = this.pairing.mismatchCount;
    // The echo came from another device: that is the outcome, whatever the session made of it.
    const reachedAnother = (): void =>
      this.pairing.failIfMismatched(
        before,
        (wrong) =>
          `the echo of the write of ${value} to holding register ${register} came from ${wrong.answered}, so the write reached that device, not ${wrong.expected}`,
      );
    try {
      await this.link.ensure().write({ address: CONTROLLER, register, value });
    } catch (error) {
      reachedAnother();
      throw error;
    }
    reachedAnother();
  }

  /**
   * Before a write is framed: the address must answer for its paired device, and on this very
   * connection. An address that moves to another dongle (a DHCP lease) resets the connections
   * to it, so a new connection is where another device can first answer: its first write waits
   * for one read whose answer carries the paired serial (and, from the identity bank, its
   * device type). Nothing is sent when it does not.
   */
  private async verify(signal?: AbortSignal): Promise<void> {
    for (let tries = 0; ; tries++) {
      this.pairing.refuseWrongDevice("nothing was sent");
      if (this.pairing.serial === undefined)
        throw new LocalDongleError(
          `the dongle at ${this.where} is paired with no device yet (no answer told its serial): nothing was sent`,
        );
      const session = this.link.ensure();
      if (session.state === "connected" && this.pairing.confirmed()) return;
      if (tries > 0)
        throw new LocalDongleError(
          `the connection to the dongle at ${this.where} changed while confirming that it answers for ${this.pairing.serial}: nothing was sent; try again`,
        );
      const detected = this.detected ?? this.decoder.detect();
      const check = this.pairing.typeCheckable()
        ? IDENTITY
        : liveReads(detected)
            .flatMap(partsOf)
            .find((read) => this.health.due(read));
      if (!check)
        throw new LocalDongleError(
          `no block of the dongle at ${this.where} answers now, so it cannot be confirmed to answer for ${this.pairing.serial}: nothing was sent`,
        );
      try {
        await this.read(check, signal);
      } catch (error) {
        if (error instanceof WrongDeviceError)
          throw new WrongDeviceError(
            `the dongle at ${this.where} ${error.wrong.why}: ${error.wrong.expected} is not reached through it (nothing was sent)`,
            error.wrong,
          );
        throw new LocalDongleError(
          `could not confirm that the dongle at ${this.where} answers for ${this.pairing.serial} (${(error as Error).message}): nothing was sent`,
        );
      }
    }
  }

  /** The serial of the device this address is paired with (upper case, as its registers hold it), undefined when none. */
  get pairedSerial(): string | undefined {
    return this.pairing.pairedSerial;
  }

  /** Whether the address answered its last for another device than its paired one. */
  get answersForAnother(): WrongDevice | undefined {
    return this.pairing.answersForAnother;
  }

  /**
   * Forgets the device this address was paired with and all its chain told (its address now
   * reaches another device): the next answer pairs it again, by the serial that answer carries.
   */
  unpair(): void {
    this.pairing.unpair();
    this.decoder = new ChainDecoder();
    this.detected = undefined;
    this.dongleSerial = "";
    this.heardAt = undefined;
    this.answeredAt = undefined;
    this.health = new BlockHealth(() => this.options.clock.now());
  }

  /**
   * For an address that is paired with nothing: asks its identity bank (or, when that does not
   * answer, the banks that tell a model) once, and tells the serial that answered; the address is
   * paired with it. Undefined when no block answered.
   */
  async whoAnswers(signal?: AbortSignal): Promise<string | undefined> {
    // A passive dongle never asks: what it overheard since tells.
    if (this.options.passive) {
      this.link.ensure();
      return this.pairing.serial;
    }
    await this.pairing.whileOpen(async () => {
      for (const read of [IDENTITY, ...DETECTION_BANKS]) {
        if (this.pairing.serial !== undefined) break;
        await this.tryRead(read, signal);
      }
    });
    return this.pairing.serial;
  }

  /** Asks each block once (what `check` does for the settings banks): its health says which did not answer. */
  async probe(reads: readonly Read[], signal?: AbortSignal): Promise<void> {
    for (const read of reads.flatMap(partsOf)) await this.tryRead(read, signal);
  }

  /** The devices as last decoded, without asking. */
  devices(): readonly DecodedDevice[] {
    return this.decoder.devices();
  }

  /** The session's clock, now. */
  now(): number {
    return this.options.clock.now();
  }

  /** Whether its session is connected now. */
  get connected(): boolean {
    return this.link.connected;
  }

  /** False while its session waits to reconnect (the dongle went away): a request would fail at once. */
  get reachable(): boolean {
    return this.link.reachable;
  }

  get lastHeardAt(): number | undefined {
    return this.heardAt;
  }

  close(): void {
    this.link.close();
    for (const listener of this.listeners) listener();
  }

  /** LV packs answer from 0x32 on without gaps: the first silent or refusing address ends the search. */
  private async probePacks(signal?: AbortSignal): Promise<void> {
    for (const address of LV_BATTERY_ADDRESSES) {
      if (await this.tryRead(lvPackBank(address), signal)) continue;
      this.health.forget(lvPackBank(address));
      return;
    }
  }

  /** Without HR 0: the banks only one kind of device fills, and an HV stack's BCU, until the model shows. */
  private async detectFromBanks(signal?: AbortSignal): Promise<void> {
    this.options.logger?.warn(
      { dongle: this.where },
      `the identity bank (${blockName(IDENTITY)}) did not answer: telling the model from the banks that do; it is asked again later`,
    );
    for (const probe of DETECTION_BANKS) {
      if (!(await this.tryRead(probe, signal))) continue;
      // Whether a BCU answers at all tells an HV stack: its first part is enough to ask.
      if (probe.base === 0) await this.tryRead(partsOf(BCU_BANK)[0] ?? BCU_BANK, signal);
      if (this.decoder.detect().family !== "unknown") break;
    }
    this.options.logger?.info(
      { dongle: this.where, model: this.decoder.detect().model },
      "model told from the banks that answered",
    );
  }

  /** Once the identity bank answers after the model was told from the banks: the model from HR 0. */
  private redetect(): void {
    const detected = this.decoder.detect();
    if (detected.from !== "identity") return;
    if (detected.model !== this.detected?.model)
      this.options.logger?.warn(
        { dongle: this.where, was: this.detected?.model, now: detected.model },
        "the identity bank answered: the model is now read from HR 0",
      );
    this.detected = detected;
    this.options.onModelRead?.(detected);
  }

  /** Reads each block (in parts of at most 60) that is due; a silent or refused one is skipped. Returns how many answered. */
  private async readEach(reads: readonly Read[], signal?: AbortSignal): Promise<number> {
    let answered = 0;
    const misses: { read: Read; why: string }[] = [];
    this.pollMisses = misses;
    try {
      for (const read of reads.flatMap(partsOf)) {
        if (!this.health.due(read)) continue;
        if (await this.tryRead(read, signal)) answered++;
      }
    } finally {
      this.pollMisses = undefined;
    }
    if (answered > 0) for (const { read, why } of misses) this.commitMiss(read, why);
    return answered;
  }

  /** A read whose silence or refusal is the block's, not the dongle's: false then, and the block's health knows. */
  private async tryRead(read: Read, signal?: AbortSignal): Promise<boolean> {
    try {
      await this.read(read, signal);
      return true;
    } catch (error) {
      if (error instanceof SessionError && error.kind !== "connection") return false;
      throw error;
    }
  }

  private async read(read: Read, signal?: AbortSignal): Promise<number[]> {
    signal?.throwIfAborted();
    if (!this.health.due(read)) {
      throw new SessionError(
        `${blockName(read)} does not answer at the dongle at ${this.where}: it is asked again later (bridge/health lists it)`,
        "refused",
      );
    }
    const session = this.link.ensure();
    const reading = this.tracked(read, this.pairing.checked(session.read(read)), this.options.clock.now());
    if (!signal) return reading;
    return new Promise((resolve, reject) => {
      const abort = (): void => reject(signal.reason);
      signal.addEventListener("abort", abort, { once: true });
      reading.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
    });
  }

  /** The block's health follows each read's end: an answer, or a silence or refusal of the block's own. */
  private async tracked(read: Read, reading: Promise<number[]>, askedAt: number): Promise<number[]> {
    try {
      const values = await reading;
      this.answeredAt = this.options.clock.now();
      this.firstRoundTripMs ??= this.answeredAt - askedAt;
      if (this.health.answered(read))
        this.options.logger?.info({ dongle: this.where, block: blockName(read) }, "a missing block answers again");
      return values;
    } catch (error) {
      if (error instanceof SessionError && error.kind !== "connection") this.noteMiss(read, error.message);
      throw error;
    }
  }

  /**
   * A block's silence counts against it only while the dongle answers other blocks (in the same
   * poll, or within the last minute for a read of its own): a dongle that answers nothing is the
   * dongle's failure, for the path to handle, not its blocks'.
   */
  private noteMiss(read: Read, why: string): void {
    if (this.pollMisses) {
      this.pollMisses.push({ read, why });
      return;
    }
    if (this.answeredAt !== undefined && this.options.clock.now() - this.answeredAt <= ALIVE_MS)
      this.commitMiss(read, why);
  }

  private commitMiss(read: Read, why: string): void {
    if (!this.health.missed(read, why)) return;
    this.decoder.forget(read);
    this.options.logger?.warn(
      { dongle: this.where, block: blockName(read), why },
      `${blockName(read)} does not answer: its values are dropped and it is asked again later, less often`,
    );
  }

  /** Waits until the controller's identity or banks were overheard (a passive dongle at discovery). */
  private hear(signal?: AbortSignal): Promise<void> {
    this.link.ensure();
    const known = (): boolean => this.heardAt !== undefined && this.decoder.detect().model !== "Unknown";
    if (known()) return Promise.resolve();
    const waitMs = this.options.timeoutMs * 6;
    return new Promise((resolve, reject) => {
      const done = (error?: Error): void => {
        cancel();
        this.listeners.delete(check);
        signal?.removeEventListener("abort", aborted);
        if (error) reject(error);
        else resolve();
      };
      const check = (): void => {
        if (!this.link.open) done(new LocalDongleError(`the dongle at ${this.where} was closed while listening`));
        else if (known()) done();
      };
      const aborted = (): void => done(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
      const cancel = later(this.options.clock, waitMs, () =>
        done(
          new LocalDongleError(
            `listened to the dongle at ${this.where} for ${waitMs} ms and heard no answer that tells its inverter: passive mode needs another client polling it (set passive: false to ask)`,
          ),
        ),
      );
      this.listeners.add(check);
      signal?.addEventListener("abort", aborted, { once: true });
    });
  }

  private heard(frame: Frame): void {
    if ((frame.kind === "response" || frame.kind === "error") && !this.pairing.accepts(frame)) return;
    if (frame.kind === "heartbeat" || frame.kind === "response") this.dongleSerial ||= frame.dongleSerial;
    this.decoder.accept(frame);
    if (frame.kind === "response" && (frame.address === 0x11 || frame.address === 0x31)) {
      this.heardAt = this.options.clock.now();
    }
    for (const listener of this.listeners) listener();
  }
}
