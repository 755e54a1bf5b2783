import type { AuditLog } from "./audit-log.js";
import type { AuditEntry, AuditEntryInput, AuditQuery } from "./audit-schema.js";
import { openStore, type Store } from "./open.js";

/**
 * The audit log of a daemon whose store could not be opened at start (a full disk, a locked
 * file): each change tries to open it again and throws the store's error while it cannot, so the
 * control gate refuses the change instead of making it without a row. History and the rules stay
 * off until the next start; only the audit log comes back.
 */
export class ReopeningAuditLog implements AuditLog {
  private store: Store | undefined;

  constructor(
    private readonly path: string,
    private readonly onOpened: () => void = () => {},
    private readonly open: (path: string) => Store = openStore,
  ) {}

  record(entry: AuditEntryInput): void {
    this.opened().audit.record(entry);
  }

  begin(entry: AuditEntryInput): number {
    return this.opened().audit.begin(entry);
  }

  settle(id: number, entry: AuditEntryInput): void {
    this.opened().audit.settle(id, entry);
  }

  recent(query?: AuditQuery): AuditEntry[] {
    return this.store?.audit.recent(query) ?? [];
  }

  close(): void {
    const store = this.store;
    this.store = undefined;
    store?.close();
  }

  private opened(): Store {
    if (this.store) return this.store;
    const store = this.open(this.path);
    this.store = store;
    this.onOpened();
    return store;
  }
}
