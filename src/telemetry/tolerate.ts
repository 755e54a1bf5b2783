import { ForbiddenError, NotFoundError } from "../cloud/index.js";
import type { Logger } from "../log.js";

/**
 * A listing the token may not be allowed to read (403) or the account may not have (404)
 * reads as empty, so that one missing scope does not stop the daemon. Other errors stand.
 */
export async function orEmpty<T>(listing: Promise<T[]>, what: string, logger?: Logger): Promise<T[]> {
  try {
    return await listing;
  } catch (error) {
    if (!(error instanceof ForbiddenError) && !(error instanceof NotFoundError)) throw error;
    logger?.warn({ status: error.status }, `${what}: not readable, taken as empty (${error.message})`);
    return [];
  }
}
