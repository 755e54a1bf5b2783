import { type Clock, every } from "../time/index.js";

export interface RulesClock {
  now(): number;
  /** Calls `tick` every `ms` until the returned function is called. */
  every(ms: number, tick: () => Promise<void>): () => void;
}

/** The rules entities' clock on the daemon's one clock; their refresh never keeps the process alive. */
export function rulesClockOn(clock: Clock): RulesClock {
  return {
    now: () => clock.now(),
    every: (ms, tick) => every(clock, ms, () => void tick(), { background: true }),
  };
}
