import type { Read } from "../../local/index.js";

/** Misses in a row before a block counts as missing (the first miss is retried at the next poll). */
const MISSES_TO_MISSING = 2;
/** A missing block is asked again after this long, doubling each time it stays silent, up to the cap. */
const FIRST_RETRY_MS = 60_000;
const MAX_RETRY_MS = 30 * 60_000;

/** A block of registers as the daemon asks for it: device, function, base and count. */
export const blockKey = (read: Read): string => `${read.address}/${read.function}/${read.base}/${read.count}`;

/** How a missing block is named in logs, `check` and `bridge/health`: "IR 180-181 at 0x11". */
export function blockName(read: Read): string {
  const space = read.function === 3 ? "HR" : "IR";
  return `${space} ${read.base}-${read.base + read.count - 1} at 0x${read.address.toString(16).padStart(2, "0")}`;
}

interface BlockState {
  readonly read: Read;
  misses: number;
  /** Set while missing: when it may be asked again (clock ms). */
  retryAt?: number;
  retryMs: number;
  answeredOnce: boolean;
  lastError?: string;
}

export interface MissingBlock {
  readonly block: string;
  readonly misses: number;
  /** Whether it ever answered since the daemon started. */
  readonly answeredOnce: boolean;
  /** When it is asked next, ISO. */
  readonly retryAt: string;
  readonly lastError?: string;
}

/**
 * Which blocks of one dongle answer. A real dongle leaves some blocks unanswered (a bank its
 * firmware lacks, one another client never asked for, a chain that drops): one that misses twice in
 * a row is missing and is asked again only after a minute, doubling up to half an hour, so one
 * silent bank does not add a timeout to every poll; the first answer makes it present again.
 */
export class BlockHealth {
  private readonly blocks = new Map<string, BlockState>();

  constructor(private readonly now: () => number) {}

  /** Whether the block may be asked now (present, or missing and due its retry). */
  due(read: Read): boolean {
    const state = this.blocks.get(blockKey(read));
    return state?.retryAt === undefined || this.now() >= state.retryAt;
  }

  /** An answer: present again. True when it had been missing. */
  answered(read: Read): boolean {
    const state = this.state(read);
    const wasMissing = state.retryAt !== undefined;
    state.misses = 0;
    state.retryMs = FIRST_RETRY_MS;
    state.answeredOnce = true;
    delete state.retryAt;
    delete state.lastError;
    return wasMissing;
  }

  /** No answer (or an error answer). True when this miss made the block missing. */
  missed(read: Read, why: string): boolean {
    const state = this.state(read);
    state.misses++;
    state.lastError = why;
    if (state.misses < MISSES_TO_MISSING) return false;
    const wasMissing = state.retryAt !== undefined;
    if (wasMissing) state.retryMs = Math.min(MAX_RETRY_MS, state.retryMs * 2);
    state.retryAt = this.now() + state.retryMs;
    return !wasMissing;
  }

  /** Drops what is known of the block: a search's end (no pack at the next address) is no block of the device's. */
  forget(read: Read): void {
    this.blocks.delete(blockKey(read));
  }

  /** The blocks missing now, for `bridge/health`. */
  missing(): MissingBlock[] {
    return this.describe((state) => state.retryAt !== undefined);
  }

  /** The blocks whose last ask went unanswered, missing yet or not (`check` asks each once). */
  unanswered(): string[] {
    return [...this.blocks.values()].filter((state) => state.misses > 0).map((state) => blockName(state.read));
  }

  private describe(which: (state: BlockState) => boolean): MissingBlock[] {
    return [...this.blocks.values()].filter(which).map((state) => ({
      block: blockName(state.read),
      misses: state.misses,
      answeredOnce: state.answeredOnce,
      retryAt: new Date(state.retryAt ?? 0).toISOString(),
      ...(state.lastError ? { lastError: state.lastError } : {}),
    }));
  }

  private state(read: Read): BlockState {
    const key = blockKey(read);
    let state = this.blocks.get(key);
    if (!state) {
      state = { read, misses: 0, retryMs: FIRST_RETRY_MS, answeredOnce: false };
      this.blocks.set(key, state);
    }
    return state;
  }
}
