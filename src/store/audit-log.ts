import type { Database, Statement } from "better-sqlite3";
import {
  type AuditEntry,
  type AuditEntryInput,
  type AuditQuery,
  auditEntryInput,
  auditQuery,
  auditRow,
} from "./audit-schema.js";
import { guard, StoreError } from "./errors.js";

/** The audit log of every change the control gate handled. */
export interface AuditLog {
  /** Records one change. */
  record(entry: AuditEntryInput): void;
  /** The latest entries first, for one target or all. */
  recent(query?: AuditQuery): AuditEntry[];
}

const COLUMNS =
  "id, at, source, requester_name, target_kind, target, action, request, ok, code, verified, skipped, message";

export class SqliteAuditLog implements AuditLog {
  private readonly insert: Statement;
  private readonly latest: Statement;
  private readonly latestFor: Statement;

  constructor(
    db: Database,
    private readonly path: string,
  ) {
    this.insert = db.prepare(
      `INSERT INTO audit_log (at, source, requester_name, target_kind, target, action, request, ok, code, verified, skipped, message)
       VALUES (@at, @source, @requesterName, @targetKind, @target, @action, @request, @ok, @code, @verified, @skipped, @message)`,
    );
    this.latest = db.prepare(`SELECT ${COLUMNS} FROM audit_log ORDER BY at DESC, id DESC LIMIT ?`);
    this.latestFor = db.prepare(`SELECT ${COLUMNS} FROM audit_log WHERE target = ? ORDER BY at DESC, id DESC LIMIT ?`);
  }

  record(entry: AuditEntryInput): void {
    const valid = auditEntryInput.parse(entry);
    guard(this.path, () =>
      this.insert.run({
        ...valid,
        requesterName: valid.requesterName ?? null,
        request: JSON.stringify(valid.request),
        ok: valid.ok ? 1 : 0,
        code: valid.code ?? null,
        verified: valid.verified ? 1 : 0,
        skipped: valid.skipped ? 1 : 0,
      }),
    );
  }

  recent(query: AuditQuery = {}): AuditEntry[] {
    const { target, limit } = auditQuery.parse(query);
    const rows = guard(this.path, () =>
      target === undefined ? this.latest.all(limit) : this.latestFor.all(target, limit),
    );
    return rows.map((row) => this.read(row));
  }

  private read(row: unknown): AuditEntry {
    const parsed = auditRow.safeParse(row);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    throw new StoreError(
      "corrupt",
      this.path,
      `an audit_log row in ${this.path} does not fit the schema (${issue?.path.join(".") ?? "row"}: ${issue?.message ?? "invalid"}): restore a backup, or move the file aside`,
    );
  }
}
