import type { Database, Statement } from "better-sqlite3";
import type { z } from "zod";
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
  /**
   * Records a change before anything is sent, so that no change is made without its row: the
   * entry says the outcome is not known yet. Throws (a StoreError) when the row cannot be
   * written. Returns the row's id for `settle`.
   */
  begin(entry: AuditEntryInput): number;
  /** Replaces a begun row's outcome (and time) with what came of the change. */
  settle(id: number, entry: AuditEntryInput): void;
  /** The latest entries first, for one target or all. */
  recent(query?: AuditQuery): AuditEntry[];
}

const COLUMNS =
  "id, at, source, requester_name, target_kind, target, action, request, ok, code, verified, skipped, message";

export class SqliteAuditLog implements AuditLog {
  private readonly insert: Statement;
  private readonly outcome: Statement;
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
    this.outcome = db.prepare(
      `UPDATE audit_log SET at = @at, ok = @ok, code = @code, verified = @verified, skipped = @skipped, message = @message
       WHERE id = @id`,
    );
    this.latest = db.prepare(`SELECT ${COLUMNS} FROM audit_log ORDER BY at DESC, id DESC LIMIT ?`);
    this.latestFor = db.prepare(`SELECT ${COLUMNS} FROM audit_log WHERE target = ? ORDER BY at DESC, id DESC LIMIT ?`);
  }

  record(entry: AuditEntryInput): void {
    this.begin(entry);
  }

  begin(entry: AuditEntryInput): number {
    const valid = auditEntryInput.parse(entry);
    const row = { ...valid, ...outcomeColumns(valid) };
    return guard(this.path, () =>
      Number(
        this.insert.run({
          ...row,
          requesterName: valid.requesterName ?? null,
          request: JSON.stringify(valid.request),
        }).lastInsertRowid,
      ),
    );
  }

  settle(id: number, entry: AuditEntryInput): void {
    const valid = auditEntryInput.parse(entry);
    guard(this.path, () => this.outcome.run({ id, at: valid.at, message: valid.message, ...outcomeColumns(valid) }));
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

function outcomeColumns(entry: z.output<typeof auditEntryInput>) {
  return {
    ok: entry.ok ? 1 : 0,
    code: entry.code ?? null,
    verified: entry.verified ? 1 : 0,
    skipped: entry.skipped ? 1 : 0,
  };
}
