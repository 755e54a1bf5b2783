import type { Logger } from "../log/log.js";
import { type Clock, offsetMs } from "../time/index.js";
import type { ChangeOutcome, Requester } from "./change.js";
import type { ClockSyncRequest } from "./clock-sync.js";

/** What the daemon does about a device clock that is off (the configuration's `clock.sync`). */
export type ClockSyncMode = "auto" | "warn" | "off";

/** Whether the daemon's own clock can be trusted to set a device's by; when not, why. */
export type OwnClockVerdict =
  | { readonly trusted: true; readonly how: string }
  | { readonly trusted: false; readonly why: string };

export interface ClockWatchOptions {
  readonly sync: (request: ClockSyncRequest, requester: Requester) => Promise<ChangeOutcome>;
  readonly modeOf: (serial: string) => ClockSyncMode;
  readonly timeZone: () => string;
  readonly judgeOwnClock: () => Promise<OwnClockVerdict>;
  readonly clock: Clock;
  readonly logger: Logger;
  /** A device's clock problem begins or its words change (with why), or it ends: the `clock_problem` entity's state. */
  readonly onProblem: (serial: string, problem: boolean, message?: string) => void;
}

/** A drift past this is corrected (auto) or warned of (warn), seconds. */
export const DRIFT_LIMIT_S = 60;
const DAY_MS = 86_400_000;

/** Why a device's clock is left off: warn only, set once today already, the daemon's own clock not trusted, the set failed. */
type ProblemKind = "warn" | "set-today" | "untrusted" | "not-set";

const SELF: Requester = { via: "daemon", name: "clock sync" };

/**
 * Watches each device's clock drift as its readings bring it (the LAN's `clock_drift`) and acts
 * by the device's mode: `auto` sets the clock through the gate when it is more than a minute off,
 * at most once a day per device unless the zone's offset changed since the last set (the GMT/BST
 * change), and only while the daemon's own clock is trusted; `warn` says so on bridge/logging
 * (once per problem) and raises `clock_problem`; `off` does nothing.
 */
export class ClockWatch {
  private readonly lastSet = new Map<string, number>();
  /** The problem each device is warned of: said once, though the drift in its words moves a second either way. */
  private readonly warned = new Map<string, ProblemKind>();
  private readonly busy = new Set<string>();

  constructor(private readonly options: ClockWatchOptions) {}

  /** One reading of a device's drift; resolves when anything it led to is done. */
  async seen(serial: string, driftSeconds: number): Promise<void> {
    const mode = this.options.modeOf(serial);
    if (mode === "off") return;
    if (Math.abs(driftSeconds) <= DRIFT_LIMIT_S) {
      this.clear(serial);
      return;
    }
    if (this.busy.has(serial)) return;
    this.busy.add(serial);
    try {
      await this.offBy(serial, driftSeconds, mode);
    } finally {
      this.busy.delete(serial);
    }
  }

  /** Sets the clock now, as asked (the button, the bridge request), if the daemon's own clock is trusted. */
  async syncNow(serial: string, requester: Requester): Promise<ChangeOutcome> {
    const verdict = await this.options.judgeOwnClock();
    if (!verdict.trusted)
      return {
        ok: false,
        verified: false,
        skipped: false,
        refused: true,
        message: `not setting the clock of ${serial}: ${verdict.why}`,
      };
    const outcome = await this.options.sync({ serial, reason: "asked", timeZone: this.options.timeZone() }, requester);
    if (outcome.ok || outcome.mayHaveApplied) this.lastSet.set(serial, this.options.clock.now());
    return outcome;
  }

  private async offBy(serial: string, driftSeconds: number, mode: "auto" | "warn"): Promise<void> {
    const zone = this.options.timeZone();
    if (mode === "warn") {
      this.problem(
        serial,
        "warn",
        `the clock of ${serial} is ${describe(driftSeconds)}: its timed slots run at the wrong time. Set it on the inverter, or set clock: {sync: auto} to let the daemon set it over the LAN`,
      );
      return;
    }
    const now = this.options.clock.now();
    const last = this.lastSet.get(serial);
    const zoneChanged = last !== undefined && offsetMs(last, zone) !== offsetMs(now, zone);
    if (last !== undefined && now - last < DAY_MS && !zoneChanged) {
      this.problem(
        serial,
        "set-today",
        `the clock of ${serial} is ${describe(driftSeconds)} again, within a day of being set: it is set at most once a day, so it is left until then`,
      );
      return;
    }
    const verdict = await this.options.judgeOwnClock();
    if (!verdict.trusted) {
      this.problem(
        serial,
        "untrusted",
        `the clock of ${serial} is ${describe(driftSeconds)}, but it is not set: ${verdict.why}. Nothing is written until the daemon's own clock can be trusted`,
      );
      return;
    }
    const reason = last === undefined ? zoneReason(now, zone) : zoneChanged ? "zone-change" : "drift";
    const outcome = await this.options.sync({ serial, reason, timeZone: zone, driftSeconds }, SELF);
    // Tried once, whatever came of it: a failure is not tried again at every poll.
    this.lastSet.set(serial, now);
    if (outcome.ok) this.clear(serial);
    else this.problem(serial, "not-set", outcome.message);
  }

  private problem(serial: string, kind: ProblemKind, message: string): void {
    if (this.warned.get(serial) === kind) return;
    this.warned.set(serial, kind);
    this.options.onProblem(serial, true, message);
    // A warning reaches <base>/bridge/logging as well as the log.
    this.options.logger.warn({ device: serial }, message);
  }

  private clear(serial: string): void {
    if (!this.warned.has(serial)) return;
    this.warned.delete(serial);
    this.options.onProblem(serial, false);
    this.options.logger.info({ device: serial }, `the clock of ${serial} is right again`);
  }
}

/** A first set is the zone's change when the zone's offset moved within the last day. */
function zoneReason(now: number, zone: string): "zone-change" | "drift" {
  return offsetMs(now - DAY_MS, zone) !== offsetMs(now, zone) ? "zone-change" : "drift";
}

function describe(driftSeconds: number): string {
  const size = Math.abs(driftSeconds);
  // Whole hours (a missed GMT/BST change) within the registers' second of rounding read as hours.
  const hours = Math.round(size / 3600);
  const text = hours > 0 && Math.abs(size - hours * 3600) <= 2 ? `${hours} h` : `${size} s`;
  return `${text} ${driftSeconds > 0 ? "ahead of" : "behind"} the house's time`;
}
