import {
  type ControlMap,
  checkWritable,
  type DecodedDevice,
  type Detected,
  type Frame,
  type Read,
} from "../../local/index.js";
import { blockName, type MissingBlock } from "./block-health.js";
import { DongleBlockReads } from "./dongle-block-reads.js";
import { DongleChain } from "./dongle-chain.js";
import { LocalDongleError, type WrongDevice, WrongDeviceError } from "./dongle-errors.js";
import { DongleLink } from "./dongle-link.js";
import { type DongleOptions, whereOf } from "./dongle-options.js";
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

/**
 * One configured dongle: its session (dongle-link.ts), whose every frame from the paired device
 * (dongle-pairing.ts) feeds one decoder (dongle-chain.ts); reads that keep each block's health
 * (dongle-block-reads.ts), discovery's probes (dongle-probe.ts) and checked writes
 * (dongle-writes.ts). The session never gives up: a dongle that was away comes back by itself,
 * and reads while it is away fail at once (src/local/session.ts says when the next attempt is).
 */
export class LocalDongle {
  private readonly link: DongleLink;
  private readonly pairing: DonglePairing;
  private readonly chain: DongleChain;
  private readonly blocks: DongleBlockReads;
  private detected: Detected | undefined;

  constructor(readonly options: DongleOptions) {
    this.link = new DongleLink(options, (frame) => this.heard(frame));
    this.pairing = new DonglePairing(
      options,
      () => this.link.connections,
      () => this.blocks.due(IDENTITY),
    );
    this.chain = new DongleChain(options);
    this.blocks = new DongleBlockReads(options, this.link, this.pairing, this.chain);
  }

  /** The blocks that do not answer now, for `bridge/health`. */
  missingBlocks(): MissingBlock[] {
    return this.blocks.missing();
  }

  /** The blocks whose last ask went unanswered while others answered, for `check`. */
  unansweredBlocks(): string[] {
    return this.blocks.unanswered();
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
      this.link.ensure();
      await this.chain.heard(() => this.link.open, signal);
    } else {
      const identity = await this.blocks.tryRead(IDENTITY, signal);
      if (!identity) await this.detectFromBanks(signal);
      roundTripMs = this.blocks.roundTripMs;
      if (!identity && this.chain.lastHeardAt === undefined)
        throw new LocalDongleError(
          `no block answered at the dongle at ${this.where}: neither its identity (${blockName(IDENTITY)}) nor any live bank`,
        );
      const detected = this.chain.detect();
      await this.blocks.readEach(liveReads(detected), signal);
      if (hasLvPacks(detected)) await this.probePacks(signal);
      if (hasHvStack(detected)) await this.blocks.tryRead(BCU_BANK, signal);
    }
    const detected = this.chain.detect();
    this.detected = detected;
    const devices = this.chain.devices();
    this.pairing.afterDiscovery(devices[0]);
    return { dongleSerial: this.chain.serial, detected, devices, roundTripMs };
  }

  /** One live poll: the controller's banks, then its devices as decoded now; a passive dongle gives what it heard since `since`. */
  async poll(signal: AbortSignal, since?: number): Promise<readonly DecodedDevice[] | undefined> {
    if (this.options.passive) {
      this.link.ensure();
      const heardAt = this.chain.lastHeardAt;
      if (heardAt === undefined || (since !== undefined && heardAt <= since)) return undefined;
      return this.chain.devices();
    }
    const detected = this.currentModel();
    // Told from the banks: the identity bank is asked again (as rarely as any missing block) until
    // it answers. On a new connection it is asked once too: its device type must be the paired one's.
    const reads =
      detected.from === "banks" || (this.pairing.typeCheckable() && !this.pairing.typedOnThisConnection())
        ? [IDENTITY, ...liveReads(detected)]
        : liveReads(detected);
    const answered = await this.blocks.readEach(reads, signal);
    if (detected.from === "banks") this.redetect();
    if (answered === 0) throw new LocalDongleError(`no block of the dongle at ${this.where} answered this poll`);
    return this.chain.devices();
  }

  /** The controller's model as discovery found it; undefined before. */
  get model(): Detected | undefined {
    return this.detected;
  }

  /** Reads `count` holding registers of the controller from `base`. */
  readHolding(base: number, count: number, signal?: AbortSignal): Promise<number[]> {
    return this.blocks.read({ address: CONTROLLER, function: 3, base, count }, signal);
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
      const paired = this.pairing.serial;
      if (paired === undefined)
        throw new LocalDongleError(
          `the dongle at ${this.where} is paired with no device yet (no answer told its serial): nothing was sent`,
        );
      const session = this.link.ensure();
      if (session.state === "connected" && this.pairing.confirmed()) return;
      if (tries > 0)
        throw new LocalDongleError(
          `the connection to the dongle at ${this.where} changed while confirming that it answers for ${paired}: nothing was sent; try again`,
        );
      const check = this.pairing.typeCheckable()
        ? IDENTITY
        : liveReads(this.currentModel())
            .flatMap(partsOf)
            .find((read) => this.blocks.due(read));
      if (!check)
        throw new LocalDongleError(
          `no block of the dongle at ${this.where} answers now, so it cannot be confirmed to answer for ${paired}: nothing was sent`,
        );
      try {
        await this.blocks.read(check, signal);
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
    this.chain.reset();
    this.detected = undefined;
    this.blocks.reset();
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
        await this.blocks.tryRead(read, signal);
      }
    });
    return this.pairing.serial;
  }

  /** Asks each block once (what `check` does for the settings banks): its health says which did not answer. */
  async probe(reads: readonly Read[], signal?: AbortSignal): Promise<void> {
    for (const read of reads.flatMap(partsOf)) await this.blocks.tryRead(read, signal);
  }

  /** The devices as last decoded, without asking. */
  devices(): readonly DecodedDevice[] {
    return this.chain.devices();
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
    return this.chain.lastHeardAt;
  }

  close(): void {
    this.link.close();
    this.chain.changed();
  }

  /** LV packs answer from 0x32 on without gaps: the first silent or refusing address ends the search. */
  private async probePacks(signal?: AbortSignal): Promise<void> {
    for (const address of LV_BATTERY_ADDRESSES) {
      if (await this.blocks.tryRead(lvPackBank(address), signal)) continue;
      this.blocks.forget(lvPackBank(address));
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
      if (!(await this.blocks.tryRead(probe, signal))) continue;
      // Whether a BCU answers at all tells an HV stack: its first part is enough to ask.
      if (probe.base === 0) await this.blocks.tryRead(partsOf(BCU_BANK)[0] ?? BCU_BANK, signal);
      if (this.chain.detect().family !== "unknown") break;
    }
    this.options.logger?.info(
      { dongle: this.where, model: this.chain.detect().model },
      "model told from the banks that answered",
    );
  }

  private currentModel(): Detected {
    return this.detected ?? this.chain.detect();
  }

  /** Once the identity bank answers after the model was told from the banks: the model from HR 0. */
  private redetect(): void {
    const detected = this.chain.detect();
    if (detected.from !== "identity") return;
    if (detected.model !== this.detected?.model)
      this.options.logger?.warn(
        { dongle: this.where, was: this.detected?.model, now: detected.model },
        "the identity bank answered: the model is now read from HR 0",
      );
    this.detected = detected;
    this.options.onModelRead?.(detected);
  }

  private heard(frame: Frame): void {
    if ((frame.kind === "response" || frame.kind === "error") && !this.pairing.accepts(frame)) return;
    this.chain.accept(frame);
  }
}
