import { type Read, SessionError } from "../../local/index.js";
import { BlockHealth, blockName, type MissingBlock } from "./block-health.js";
import type { DongleChain } from "./dongle-chain.js";
import type { DongleLink } from "./dongle-link.js";
import { type DongleOptions, whereOf } from "./dongle-options.js";
import type { DonglePairing } from "./dongle-pairing.js";
import { partsOf } from "./reads.js";

/** A dongle that answered any block this recently is alive: a silent block is then the block's own. */
const ALIVE_MS = 60_000;

/**
 * Reads of one dongle's blocks of registers: each checked against the paired device, and each
 * block's health kept, so a block that stops answering is dropped and asked again less often.
 */
export class DongleBlockReads {
  private health: BlockHealth;
  /** When any block last answered (clock ms). */
  private answeredAt: number | undefined;
  /** How long the first request that was answered took, asked to answered. */
  private firstRoundTripMs: number | undefined;
  /** Set during a poll: its blocks' misses, counted once the poll shows the dongle answers. */
  private pollMisses: { read: Read; why: string }[] | undefined;
  private readonly where: string;

  constructor(
    private readonly options: DongleOptions,
    private readonly link: DongleLink,
    private readonly pairing: DonglePairing,
    private readonly chain: DongleChain,
  ) {
    this.health = this.freshHealth();
    this.where = whereOf(options);
  }

  get roundTripMs(): number | undefined {
    return this.firstRoundTripMs;
  }

  /** Whether a block may be asked now: not missing, or missing and due to be asked again. */
  due(read: Read): boolean {
    return this.health.due(read);
  }

  missing(): MissingBlock[] {
    return this.health.missing();
  }

  unanswered(): string[] {
    return this.health.unanswered();
  }

  /** Forgets a block's health: one that never was there (past the last LV pack). */
  forget(read: Read): void {
    this.health.forget(read);
  }

  /** Forgets every block's health (the address now reaches another device). */
  reset(): void {
    this.answeredAt = undefined;
    this.health = this.freshHealth();
  }

  /** Reads each block (in parts of at most 60) that is due; a silent or refused one is skipped. Returns how many answered. */
  async readEach(reads: readonly Read[], signal?: AbortSignal): Promise<number> {
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
  async tryRead(read: Read, signal?: AbortSignal): Promise<boolean> {
    try {
      await this.read(read, signal);
      return true;
    } catch (error) {
      if (error instanceof SessionError && error.kind !== "connection") return false;
      throw error;
    }
  }

  async read(read: Read, signal?: AbortSignal): Promise<number[]> {
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
    this.chain.forget(read);
    this.options.logger?.warn(
      { dongle: this.where, block: blockName(read), why },
      `${blockName(read)} does not answer: its values are dropped and it is asked again later, less often`,
    );
  }

  private freshHealth(): BlockHealth {
    return new BlockHealth(() => this.options.clock.now());
  }
}
