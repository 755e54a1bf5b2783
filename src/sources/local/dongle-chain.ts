import {
  ChainDecoder,
  CLOCK_COUNT,
  CLOCK_FIRST,
  type DecodedDevice,
  type Detected,
  type Frame,
  type Read,
} from "../../local/index.js";
import { later } from "../../time/index.js";
import { LocalDongleError } from "./dongle-errors.js";
import { type DongleOptions, whereOf } from "./dongle-options.js";

/**
 * What one dongle's frames told of its device chain: every frame taken, asked for or not, feeds
 * one decoder, so an active dongle's answers and a passive one's overheard answers go the same way.
 */
export class DongleChain {
  private decoder = new ChainDecoder();
  private dongleSerial = "";
  /** When an answer from the controller was last heard (clock ms), for a passive dongle's polls. */
  private heardAt: number | undefined;
  private listeners = new Set<() => void>();
  /** When the controller's clock registers (HR 35-40) last answered (clock ms). */
  private clockAt: number | undefined;

  constructor(private readonly options: DongleOptions) {}

  get serial(): string {
    return this.dongleSerial;
  }

  get lastHeardAt(): number | undefined {
    return this.heardAt;
  }

  get clockHeardAt(): number | undefined {
    return this.clockAt;
  }

  detect(): Detected {
    return this.decoder.detect();
  }

  devices(): readonly DecodedDevice[] {
    return this.decoder.devices();
  }

  /** Drops a block's values (it stopped answering). */
  forget(read: Read): void {
    this.decoder.forget(read);
  }

  accept(frame: Frame): void {
    if (frame.kind === "heartbeat" || frame.kind === "response") this.dongleSerial ||= frame.dongleSerial;
    this.decoder.accept(frame);
    if (frame.kind === "response" && (frame.address === 0x11 || frame.address === 0x31)) {
      this.heardAt = this.options.clock.now();
      const clockRead =
        frame.function === 0x03 && frame.base <= CLOCK_FIRST && frame.base + frame.count >= CLOCK_FIRST + CLOCK_COUNT;
      if (clockRead) this.clockAt = this.heardAt;
    }
    this.changed();
  }

  /** Tells whoever waits to hear that something changed (a frame, or the dongle closed). */
  changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** Forgets all the chain told (its address now reaches another device). */
  reset(): void {
    this.decoder = new ChainDecoder();
    this.dongleSerial = "";
    this.heardAt = undefined;
    this.clockAt = undefined;
  }

  /** Waits until the controller's identity or banks were overheard (a passive dongle at discovery); `open` is false once the dongle was closed. */
  heard(open: () => boolean, signal?: AbortSignal): Promise<void> {
    const where = whereOf(this.options);
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
        if (!open()) done(new LocalDongleError(`the dongle at ${where} was closed while listening`));
        else if (known()) done();
      };
      const aborted = (): void => done(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
      const cancel = later(this.options.clock, waitMs, () =>
        done(
          new LocalDongleError(
            `listened to the dongle at ${where} for ${waitMs} ms and heard no answer that tells its inverter: passive mode needs another client polling it (set passive: false to ask)`,
          ),
        ),
      );
      this.listeners.add(check);
      signal?.addEventListener("abort", aborted, { once: true });
    });
  }
}
