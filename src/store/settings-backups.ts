import type { Database, Statement } from "better-sqlite3";
import { z } from "zod";
import { guard, StoreError } from "./errors.js";

/** How many backups the daemon keeps per device: a month of daily ones. */
export const SETTINGS_BACKUPS_KEPT = 30;

/** One backup as the list shows it, without its file. */
export interface SettingsBackupEntry {
  readonly id: number;
  readonly serial: string;
  /** Epoch ms. */
  readonly takenAt: number;
  /** How many settings it holds. */
  readonly settings: number;
}

export interface NewSettingsBackup {
  readonly serial: string;
  readonly takenAt: number;
  readonly settings: number;
  /** The file as `settings backup` writes it. */
  readonly yaml: string;
}

/** The daemon's daily backups of each device's settings. */
export interface SettingsBackups {
  /** Keeps a backup and drops the device's oldest beyond SETTINGS_BACKUPS_KEPT; returns its id. */
  add(backup: NewSettingsBackup): number;
  /** Every device's backups, newest first. */
  list(): SettingsBackupEntry[];
  /** The file of one backup, or undefined when there is none with that id. */
  yaml(id: number): { readonly serial: string; readonly takenAt: number; readonly yaml: string } | undefined;
}

const entryRow = z.object({
  id: z.number().int(),
  serial: z.string(),
  taken_at: z.number().int(),
  settings: z.number().int(),
});
const fileRow = z.object({ serial: z.string(), taken_at: z.number().int(), yaml: z.string() });

export class SqliteSettingsBackups implements SettingsBackups {
  private readonly insert: Statement;
  private readonly prune: Statement;
  private readonly all: Statement;
  private readonly one: Statement;

  constructor(
    private readonly db: Database,
    private readonly path: string,
  ) {
    this.insert = db.prepare("INSERT INTO settings_backup (serial, taken_at, settings, yaml) VALUES (?, ?, ?, ?)");
    this.prune = db.prepare(
      `DELETE FROM settings_backup WHERE serial = ? AND id NOT IN
         (SELECT id FROM settings_backup WHERE serial = ? ORDER BY taken_at DESC, id DESC LIMIT ${SETTINGS_BACKUPS_KEPT})`,
    );
    this.all = db.prepare(
      "SELECT id, serial, taken_at, settings FROM settings_backup ORDER BY taken_at DESC, id DESC, serial",
    );
    this.one = db.prepare("SELECT serial, taken_at, yaml FROM settings_backup WHERE id = ?");
  }

  add(backup: NewSettingsBackup): number {
    return guard(this.path, () =>
      this.db.transaction(() => {
        const id = Number(this.insert.run(backup.serial, backup.takenAt, backup.settings, backup.yaml).lastInsertRowid);
        this.prune.run(backup.serial, backup.serial);
        return id;
      })(),
    );
  }

  list(): SettingsBackupEntry[] {
    const rows = guard(this.path, () => this.all.all());
    return rows.map((found) => {
      const parsed = entryRow.safeParse(found);
      if (!parsed.success) throw this.corrupt();
      const { id, serial, taken_at, settings } = parsed.data;
      return { id, serial, takenAt: taken_at, settings };
    });
  }

  yaml(id: number): { readonly serial: string; readonly takenAt: number; readonly yaml: string } | undefined {
    const found = guard(this.path, () => this.one.get(id));
    if (found === undefined) return undefined;
    const parsed = fileRow.safeParse(found);
    if (!parsed.success) throw this.corrupt();
    return { serial: parsed.data.serial, takenAt: parsed.data.taken_at, yaml: parsed.data.yaml };
  }

  private corrupt(): StoreError {
    return new StoreError(
      "corrupt",
      this.path,
      `a settings_backup row in ${this.path} does not fit the schema: restore a backup, or move the file aside`,
    );
  }
}
