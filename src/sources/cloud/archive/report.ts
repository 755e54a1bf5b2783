import type { StoreError } from "../../../store/index.js";
import type { ArchiveKind } from "./kinds.js";

/** What one kind got: rows read, rows new to the store, days read and days now complete. */
export interface KindTotals {
  rows: number;
  inserted: number;
  days: number;
  completeDays: number;
  readonly devices: Set<string>;
}

export type MissingReason = "no data" | "not found (404)" | "not allowed (403)";

export interface Missing {
  readonly kind: ArchiveKind | "devices";
  /** Left out when the whole kind is missing (a scope the token lacks). */
  readonly device?: string;
  readonly reason: MissingReason;
  /** Days affected, where known. */
  days?: number;
  readonly message?: string;
}

export interface Failure {
  readonly kind: ArchiveKind;
  readonly device: string;
  readonly days: readonly string[];
  readonly message: string;
}

export interface ArchiveReport {
  readonly requests: number;
  readonly elapsedMs: number;
  readonly tasks: number;
  readonly tasksDone: number;
  readonly kinds: ReadonlyMap<ArchiveKind, KindTotals>;
  readonly missing: readonly Missing[];
  readonly failures: readonly Failure[];
  /** Stopped on request (Ctrl-C, or the daemon stopping) before every task ran. */
  readonly interrupted: boolean;
  /** Stopped because the store could not take what was read (a full disk, a read-only file). */
  readonly storeFailure?: StoreError;
}

/** The end-of-run summary, as the CLI prints it. */
export function formatReport(report: ArchiveReport): string {
  const lines: string[] = [];
  const seconds = Math.round(report.elapsedMs / 1000);
  lines.push(
    `archive: ${report.requests} request(s) in ${duration(seconds)}; ${report.tasksDone} of ${report.tasks} task(s) done${report.interrupted ? " (interrupted: run again to resume)" : ""}`,
  );
  lines.push("copied:");
  if (report.kinds.size === 0) lines.push("  nothing new: every day asked for was already complete");
  for (const [kind, t] of report.kinds) {
    lines.push(
      `  ${kind.padEnd(15)} ${t.rows} row(s) (${t.inserted} new) over ${t.days} day(s), ${t.completeDays} complete; ${t.devices.size} device(s)`,
    );
  }
  if (report.missing.length > 0) {
    lines.push("missing:");
    for (const m of report.missing) {
      const what = m.device ? `${m.kind} ${m.device}` : m.kind;
      const days = m.days !== undefined ? ` (${m.days} day(s))` : "";
      lines.push(`  ${what}: ${m.reason}${days}${m.message ? `: ${m.message}` : ""}`);
    }
  }
  if (report.storeFailure) {
    lines.push(`stopped: nothing more was read, as the store cannot take it: ${report.storeFailure.message}`);
  }
  if (report.failures.length > 0) {
    lines.push(`failed (${report.failures.length}):`);
    for (const f of report.failures.slice(0, 20)) {
      const span = f.days.length > 1 ? `${f.days[0]}..${f.days[f.days.length - 1]}` : (f.days[0] ?? "");
      lines.push(`  ${f.kind} ${f.device} ${span}: ${f.message}`);
    }
    if (report.failures.length > 20) lines.push(`  ... and ${report.failures.length - 20} more`);
    lines.push("run the same command again to retry what failed; complete days are not read again");
  }
  return `${lines.join("\n")}\n`;
}

export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}m`;
}
