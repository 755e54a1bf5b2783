import { createHash } from "node:crypto";
import { appendFileSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { RefusalWatch, refusalText } from "../../cloud/index.js";
import { PRIVATE_FILE } from "../../files/file-modes.js";
import type { CloudRefusal } from "../../health/index.js";
import type { Logger } from "../../log/log.js";

/** The file next to the store that lists the tokens (a short hash of each, never the token) that have worked. */
const SEEN_FILE = "cloud-tokens-seen";

function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex").slice(0, 16);
}

function seenFile(storePath: string): string | undefined {
  return storePath === ":memory:" ? undefined : join(dirname(storePath), SEEN_FILE);
}

/** Whether this token worked for a daemon with this store before (check asks, to say which cause of a refusal is likelier). */
export function tokenWorkedBefore(storePath: string, token: string): boolean {
  return workedBefore(seenFile(storePath), tokenHash(token));
}

/** Notes that this token worked (a short hash of it, never the token), for a later refusal's likelier cause. */
export function rememberTokenWorked(storePath: string, token: string): void {
  if (tokenWorkedBefore(storePath, token)) return;
  const file = seenFile(storePath);
  if (file) appendFileSync(file, `${tokenHash(token)}\n`, { mode: PRIVATE_FILE });
}

function workedBefore(file: string | undefined, hash: string): boolean {
  if (!file) return false;
  try {
    return readFileSync(file, "utf8").split("\n").includes(hash);
  } catch {
    return false;
  }
}

export interface CloudAccessOptions {
  readonly token: string;
  readonly storePath: string;
  /** What carries on without the cloud (dongles configured), told with the refusal; undefined when nothing does. */
  readonly carryingOn: string | undefined;
  readonly logger: Logger;
}

/**
 * Whether the cloud refuses this daemon, and which cause is likelier (cloud/refusal.ts): every
 * request's answer is recorded, a refusal and its end are logged once each. That a token worked
 * is remembered across restarts, so a daemon restarted after its subscription lapsed still says so.
 */
export class CloudAccess {
  private readonly watch: RefusalWatch;
  private remembered: boolean;
  private announced: string | undefined;

  constructor(private readonly options: CloudAccessOptions) {
    this.remembered = tokenWorkedBefore(options.storePath, options.token);
    this.watch = new RefusalWatch(this.remembered);
  }

  /** One request's answer. */
  record(endpoint: string, status: number | undefined): void {
    this.watch.record(endpoint, status);
    if (this.watch.hasWorked && !this.remembered) this.remember();
    const now = this.watch.current();
    const { logger, carryingOn } = this.options;
    if (now && now.text !== this.announced) {
      logger.warn({ status: now.status, likelier: now.likelier }, carryingOn ? `${now.text} ${carryingOn}` : now.text);
    } else if (!now && this.announced !== undefined) {
      logger.info("the cloud takes the token again");
    }
    this.announced = now?.text;
  }

  /** The refusal a request at start-up got (its first one): what to tell, with the likelier cause. */
  refusedAtStart(status: number): string {
    return refusalText(status, this.watch.hasWorked ? "subscription" : "token");
  }

  /** The refusal in force, for bridge/health and the web page. */
  refusal(): CloudRefusal | undefined {
    const now = this.watch.current();
    return (
      now && {
        status: now.status,
        likelier: now.likelier,
        message: now.text,
        carrying_on: this.options.carryingOn ?? null,
      }
    );
  }

  private remember(): void {
    this.remembered = true;
    try {
      rememberTokenWorked(this.options.storePath, this.options.token);
    } catch (error) {
      this.options.logger.debug({ err: (error as Error).message }, "could not remember that the token worked");
    }
  }
}
