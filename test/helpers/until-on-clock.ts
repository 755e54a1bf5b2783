import { vi } from "vitest";
import type { VirtualClock } from "../../src/time/virtual-clock.js";

/** Moves the virtual clock in steps while real socket I/O catches up, until `check` passes. */
export async function untilOnClock(
  clock: VirtualClock,
  check: () => void,
  stepMs = 50,
  timeoutMs = 8_000,
): Promise<void> {
  await vi.waitFor(
    () => {
      clock.advance(stepMs);
      check();
    },
    { timeout: timeoutMs, interval: 2 },
  );
}
