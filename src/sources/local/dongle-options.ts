import type { Detected } from "../../local/index.js";
import type { Logger } from "../../log/log.js";
import type { Clock } from "../../time/index.js";
import type { WrongDevice } from "./dongle-errors.js";

export interface DongleOptions {
  readonly host: string;
  readonly port: number;
  /** Only listen: decode the answers the dongle fans out to another client, never ask. */
  readonly passive: boolean;
  /** Least time between two frames sent, ms (the session's default when left out). */
  readonly gap_ms?: number;
  readonly clock: Clock;
  /** How long one request may wait for its answer; a passive dongle waits this long, times 6, to hear its controller. */
  readonly timeoutMs: number;
  readonly logger?: Logger;
  /** Told when the model is read from HR 0 after it was told from the banks. */
  readonly onModelRead?: (detected: Detected) => void;
  /** Told each time its session connects (a dongle that was away is back). */
  readonly onConnected?: () => void;
  /** Session options a test pins (jitter). */
  readonly random?: () => number;
  /** Told once each time the address starts answering for another device than the one it is paired with. */
  readonly onWrongDevice?: (event: WrongDevice) => void;
}

/** host:port, as logs and errors name a dongle. */
export const whereOf = (options: Pick<DongleOptions, "host" | "port">): string => `${options.host}:${options.port}`;
