import { type ControlMap, checkWritable, type Detected } from "../../local/index.js";
import type { DongleBlockReads } from "./dongle-block-reads.js";
import { LocalDongleError, WrongDeviceError } from "./dongle-errors.js";
import type { DongleLink } from "./dongle-link.js";
import { type DongleOptions, whereOf } from "./dongle-options.js";
import type { DonglePairing } from "./dongle-pairing.js";
import { CONTROLLER, IDENTITY, liveReads, partsOf } from "./reads.js";

/** Writes to one dongle's controller, each only once the address is confirmed to answer for its paired device. */
export class DongleWrites {
  private readonly where: string;

  constructor(
    private readonly options: DongleOptions,
    private readonly link: DongleLink,
    private readonly pairing: DonglePairing,
    private readonly blocks: DongleBlockReads,
    /** The controller's model as discovery found it, or as the chain tells it now. */
    private readonly detected: () => Detected,
  ) {
    this.where = whereOf(options);
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
        : liveReads(this.detected())
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
}
