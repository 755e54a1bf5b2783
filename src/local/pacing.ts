/** Least time between two frames sent to a dongle by default, ms: real dongles drop frames that come faster. */
export const DONGLE_GAP_MS = 250;
