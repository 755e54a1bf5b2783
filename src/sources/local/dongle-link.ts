import { DongleSession, type Frame } from "../../local/index.js";
import { type DongleOptions, whereOf } from "./dongle-options.js";

/**
 * The TCP session to one dongle (src/local/session.ts), started on first use: it never gives up,
 * so a dongle that was away comes back by itself, and requests while it is away fail at once
 * (the session says when the next attempt is). Every frame it hears, asked for or not, goes to
 * `onFrame`.
 */
export class DongleLink {
  private session: DongleSession | undefined;
  /** Its session lost the dongle and has not connected since. */
  private away = false;
  private made = 0;

  constructor(
    private readonly options: DongleOptions,
    private readonly onFrame: (frame: Frame) => void,
  ) {}

  /** Connections the session made so far. */
  get connections(): number {
    return this.made;
  }

  /** Whether its session is connected now. */
  get connected(): boolean {
    return this.session?.state === "connected";
  }

  /** False while its session waits to reconnect (the dongle went away): a request would fail at once. */
  get reachable(): boolean {
    return this.session?.state !== "waiting to reconnect";
  }

  /** False once closed, until the next request starts a session again. */
  get open(): boolean {
    return this.session !== undefined;
  }

  /** The session, started when there is none or it was closed. */
  ensure(): DongleSession {
    const state = this.session?.state;
    if (this.session && state !== "closed") return this.session;
    const where = whereOf(this.options);
    const session = new DongleSession({
      host: this.options.host,
      port: this.options.port,
      clock: this.options.clock,
      requestTimeoutMs: this.options.timeoutMs,
      ...(this.options.gap_ms !== undefined ? { minGapMs: this.options.gap_ms } : {}),
      ...(this.options.random ? { random: this.options.random } : {}),
      onFrame: (frame) => this.onFrame(frame),
      onState: (state, detail) => {
        if (state === "connected") {
          if (this.away) this.options.logger?.info({ dongle: where }, "the dongle is back");
          this.away = false;
          this.made++;
          this.options.onConnected?.();
        }
        // Said once when it goes away, not at every attempt while it stays away.
        if (state === "waiting to reconnect") {
          const how = this.away ? "debug" : "warn";
          this.options.logger?.[how]({ dongle: where, detail }, "dongle waiting to reconnect");
          this.away = true;
        }
      },
    });
    this.session = session;
    session.start();
    return session;
  }

  close(): void {
    this.session?.close();
    this.session = undefined;
  }
}
