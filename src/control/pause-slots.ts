import { type Clock, every } from "../time/index.js";
import type { Requester } from "./change.js";
import { type ControlGate, TARGET_REQUESTER } from "./gate.js";

/** Who moves a held pause at its slot's edges, in the audit log. */
const SLOT_EDGE: Requester = { via: "daemon", name: "pause-slot" };

/**
 * The edges of the pause slots the daemon holds (pause-emulation.ts), and its discharge target
 * (discharge-target.ts): once a minute on the daemon's clock, each device's discharge target is
 * checked against its latest live SoC, and each device whose paused sides differ from the last
 * minute's (and each once at start) has its battery limits put where the pause wants them,
 * through the gate.
 */
export class PauseSlots {
  private readonly last = new Map<string, string>();
  private cancel: (() => void) | undefined;

  constructor(
    private readonly gate: Pick<ControlGate, "pausedSidesNow" | "enforcePause" | "checkDischargeTarget">,
    private readonly serials: () => readonly string[],
    private readonly clock: Clock,
    /** The battery's latest live SoC (%), undefined while none was read. */
    private readonly soc: (serial: string) => number | undefined = () => undefined,
  ) {}

  start(): void {
    this.cancel ??= every(this.clock, 60_000, () => void this.tick());
  }

  stop(): void {
    this.cancel?.();
    this.cancel = undefined;
  }

  /** Enforces each held pause whose sides changed since the last tick; resolves when all are done. */
  async tick(): Promise<void> {
    for (const serial of this.serials()) {
      const target = await this.gate.checkDischargeTarget(serial, this.soc(serial));
      const now = this.gate.pausedSidesNow(serial);
      if (now === undefined || this.last.get(serial) === now) continue;
      this.last.set(serial, now);
      await this.gate.enforcePause(serial, target ? TARGET_REQUESTER : SLOT_EDGE);
    }
  }
}
