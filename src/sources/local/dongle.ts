import type { ControlMap, DecodedDevice, Detected, Frame, Read } from "../../local/index.js";
import { blockName, type MissingBlock } from "./block-health.js";
import { DongleBlockReads } from "./dongle-block-reads.js";
import { DongleChain } from "./dongle-chain.js";
import { LocalDongleError, type WrongDevice } from "./dongle-errors.js";
import { DongleLink } from "./dongle-link.js";
import { type DongleOptions, whereOf } from "./dongle-options.js";
import { DonglePairing } from "./dongle-pairing.js";
import { askWhoAnswers, detectFromBanks, probeEach, probePacks } from "./dongle-probe.js";
import { DongleWrites } from "./dongle-writes.js";
import { HoldingRefresh } from "./holding-refresh.js";
import { BCU_BANK, CONTROLLER, hasHvStack, hasLvPacks, IDENTITY, liveReads } from "./reads.js";

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
  private readonly writes: DongleWrites;
  private detected: Detected | undefined;
  private readonly holdingRefresh: HoldingRefresh;

  constructor(readonly options: DongleOptions) {
    this.link = new DongleLink(options, (frame) => this.heard(frame));
    this.pairing = new DonglePairing(
      options,
      () => this.link.connections,
      () => this.blocks.due(IDENTITY),
    );
    this.chain = new DongleChain(options);
    this.holdingRefresh = new HoldingRefresh(options.clock);
    this.blocks = new DongleBlockReads(options, this.link, this.pairing, this.chain);
    this.writes = new DongleWrites(options, this.link, this.pairing, this.blocks, () => this.currentModel());
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
      this.holdingRefresh.asked();
      if (!identity) await detectFromBanks(this.options, this.blocks, this.chain, signal);
      roundTripMs = this.blocks.roundTripMs;
      if (!identity && this.chain.lastHeardAt === undefined)
        throw new LocalDongleError(
          `no block answered at the dongle at ${this.where}: neither its identity (${blockName(IDENTITY)}) nor any live bank`,
        );
      const detected = this.chain.detect();
      await this.blocks.readEach(liveReads(detected), signal);
      if (hasLvPacks(detected)) await probePacks(this.blocks, signal);
      // A three-phase's stack is asked only once its identity answered: told from its banks alone, a
      // dongle that already let a block go silent is not kept past discovery's deadline by two more.
      if (hasHvStack(detected) && (detected.family !== "three-phase" || identity))
        await this.blocks.tryRead(BCU_BANK, signal);
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
    // The identity bank holds the calibration stage (HR 29) and the clock (HR 35-40): read again
    // every few minutes (holding-refresh.ts).
    const identity =
      detected.from === "banks" ||
      (this.pairing.typeCheckable() && !this.pairing.typedOnThisConnection()) ||
      this.holdingRefresh.due(detected);
    if (identity) this.holdingRefresh.asked();
    const reads = identity ? [IDENTITY, ...liveReads(detected)] : liveReads(detected);
    const answered = await this.blocks.readEach(reads, signal);
    if (detected.from === "banks") this.redetect();
    if (answered === 0) throw new LocalDongleError(`no block of the dongle at ${this.where} answered this poll`);
    return this.chain.devices();
  }

  /** When the controller's clock registers last answered (the session's clock), undefined before. */
  get clockHeardAt(): number | undefined {
    return this.chain.clockHeardAt;
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
  writeHolding(map: ControlMap, register: number, value: number, signal?: AbortSignal): Promise<void> {
    return this.writes.writeHolding(map, register, value, signal);
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
    return askWhoAnswers(this.blocks, this.pairing, signal);
  }

  /** Asks each block once (what `check` does for the settings banks): its health says which did not answer. */
  probe(reads: readonly Read[], signal?: AbortSignal): Promise<void> {
    return probeEach(this.blocks, reads, signal);
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
