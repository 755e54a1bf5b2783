import type { Config } from "../config/index.js";
import type { Logger } from "../log/log.js";
import { type AuditLog, openStore, ReopeningAuditLog, type Store } from "../store/index.js";
import type { Lifecycle } from "./lifecycle.js";

/**
 * The store (closed with the daemon) and the audit log every change is recorded in: the store's,
 * or one that tries to open the store again when it could not be opened.
 */
export function buildStore(
  config: Config,
  logger: Logger,
  life: Lifecycle,
): { readonly store: Store | undefined; readonly audit: AuditLog } {
  const store = openStoreOrWarn(config, logger);
  if (store) life.onStop(async () => store.close());
  const audit = store?.audit ?? reopeningAudit(config, logger, life);
  return { store, audit };
}

function openStoreOrWarn(config: Config, logger: Logger): Store | undefined {
  try {
    return openStore(config.store.path);
  } catch (error) {
    logger.error(
      { err: (error as Error).message },
      "the store could not be opened: running without history or rules, and every change is refused until the audit log can be written",
    );
    return undefined;
  }
}

/**
 * Used when the store cannot be opened: no change is made without its audit row, so each change
 * tries to open the store again and is refused while it cannot.
 */
function reopeningAudit(config: Config, logger: Logger, life: Lifecycle): AuditLog {
  const audit = new ReopeningAuditLog(config.store.path, () =>
    logger.warn(
      { store: config.store.path },
      "the store can be written again: changes are taken and audited; history and the rules start at the next restart",
    ),
  );
  life.onStop(async () => audit.close());
  return audit;
}
