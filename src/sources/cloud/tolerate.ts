import { ForbiddenError, NotFoundError, ResponseShapeError } from "../../cloud/index.js";
import type { Logger } from "../../log/log.js";

/**
 * A listing the token may not be allowed to read (403), the account may not have (404), or
 * whose answer cannot be read (a body the client's schema refuses) reads as empty, so that
 * one missing scope or one odd answer does not stop the daemon or the other devices. Other
 * errors stand, and so does an odd answer with `oddBodyStands` (a refresh, which keeps the
 * devices it knows rather than removing them all over one unreadable listing).
 */
export async function orEmpty<T>(
  listing: Promise<T[]>,
  what: string,
  logger?: Logger,
  options: { readonly oddBodyStands?: boolean } = {},
): Promise<T[]> {
  try {
    return await listing;
  } catch (error) {
    const odd = error instanceof ResponseShapeError;
    if (
      (!(error instanceof ForbiddenError) && !(error instanceof NotFoundError) && !odd) ||
      (odd && options.oddBodyStands)
    )
      throw error;
    logger?.warn({ status: error.status }, `${what}: not readable, taken as empty (${error.message})`);
    return [];
  }
}
