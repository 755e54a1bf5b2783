import type { Logger } from "../log/log.js";
import type { DeviceControl } from "../sources/index.js";
import type { Clock } from "../time/index.js";
import type { ChangeOutcome } from "./change.js";
import type { ControlState } from "./control-state.js";

/** How long a change waits for the device's answer, and what it does while the answer is late. */
export interface WriteTiming {
  /** The answer is awaited this long (the path's own timeout) before reading back starts. */
  readonly answerMs: number;
  /** After that, reading back goes on this long while the write may still land. */
  readonly settleMs: number;
  /** The write's request stays open this long in all; an answer after the outcome goes into the audit log. */
  readonly lateAnswerMs: number;
}

/** What each kind of change needs from the gate. */
export interface ChangeContext {
  /** Where changes are written and read back. */
  readonly control: DeviceControl;
  /** The devices' current control values: skips unchanged writes, and takes what a change applied. */
  readonly state: ControlState;
  readonly logger: Logger;
  readonly signal?: AbortSignal;
  readonly timing: WriteTiming;
  /** The waits between read-backs, and for a late answer, run on it. */
  readonly clock: Clock;
  /**
   * Takes a write still in flight when the outcome was given: what its answer says, when it
   * comes, is recorded, and the device takes no other change before then.
   */
  readonly lateAnswer: (late: Promise<ChangeOutcome>) => void;
  /**
   * Counts the values about to be written to the device against its daily write budget; the
   * reason to refuse when it is spent (nothing was counted then).
   */
  readonly spend: (serial: string, writes: number) => string | undefined;
}

/** Changes jump the rate budget's queue: a person or a rule is waiting for them. */
export function callOptions(context: Pick<ChangeContext, "signal">): {
  priority: "command";
  signal?: AbortSignal;
} {
  return context.signal ? { priority: "command", signal: context.signal } : { priority: "command" };
}
