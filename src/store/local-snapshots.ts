import type { Database, Statement } from "better-sqlite3";
import { z } from "zod";
import { guard, StoreError } from "./errors.js";

/** One setting as read when the snapshot was taken. */
export const snapshotSetting = z.object({
  settingId: z.number().int(),
  name: z.string(),
  value: z.union([z.string(), z.number(), z.boolean()]),
});
export type SnapshotSetting = z.infer<typeof snapshotSetting>;

/** The daemon's own snapshot of a device's settings: what a restore puts back over the LAN. */
export interface LocalSnapshot {
  readonly serial: string;
  readonly name: string;
  readonly takenAt: number;
  readonly settings: readonly SnapshotSetting[];
}

export interface LocalSnapshots {
  /** Keeps a new snapshot; false when the device already has one of that name (nothing is replaced). */
  add(snapshot: LocalSnapshot): boolean;
  get(serial: string, name: string): LocalSnapshot | undefined;
  /** False when there was none of that name. */
  delete(serial: string, name: string): boolean;
}

const row = z.object({ serial: z.string(), name: z.string(), taken_at: z.number().int(), settings: z.string() });
const settingsList = z.array(snapshotSetting);

export class SqliteLocalSnapshots implements LocalSnapshots {
  private readonly insert: Statement;
  private readonly one: Statement;
  private readonly remove: Statement;

  constructor(
    db: Database,
    private readonly path: string,
  ) {
    this.insert = db.prepare(
      "INSERT INTO local_snapshot (serial, name, taken_at, settings) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
    );
    this.one = db.prepare("SELECT serial, name, taken_at, settings FROM local_snapshot WHERE serial = ? AND name = ?");
    this.remove = db.prepare("DELETE FROM local_snapshot WHERE serial = ? AND name = ?");
  }

  add(snapshot: LocalSnapshot): boolean {
    const settings = JSON.stringify(settingsList.parse(snapshot.settings));
    const inserted = guard(this.path, () =>
      this.insert.run(snapshot.serial, snapshot.name, snapshot.takenAt, settings),
    );
    return inserted.changes > 0;
  }

  get(serial: string, name: string): LocalSnapshot | undefined {
    const found = guard(this.path, () => this.one.get(serial, name));
    if (found === undefined) return undefined;
    const parsed = row.safeParse(found);
    const settings = parsed.success ? settingsList.safeParse(safeJson(parsed.data.settings)) : undefined;
    if (!parsed.success || !settings?.success)
      throw new StoreError(
        "corrupt",
        this.path,
        `a local_snapshot row in ${this.path} does not fit the schema: restore a backup, or move the file aside`,
      );
    return { serial, name, takenAt: parsed.data.taken_at, settings: settings.data };
  }

  delete(serial: string, name: string): boolean {
    return guard(this.path, () => this.remove.run(serial, name).changes) > 0;
  }
}

/** The same in memory, for a daemon whose store could not be opened. */
export class MemoryLocalSnapshots implements LocalSnapshots {
  private readonly kept = new Map<string, LocalSnapshot>();

  add(snapshot: LocalSnapshot): boolean {
    const key = `${snapshot.serial}\n${snapshot.name}`;
    if (this.kept.has(key)) return false;
    this.kept.set(key, { ...snapshot, settings: settingsList.parse(snapshot.settings) });
    return true;
  }

  get(serial: string, name: string): LocalSnapshot | undefined {
    return this.kept.get(`${serial}\n${name}`);
  }

  delete(serial: string, name: string): boolean {
    return this.kept.delete(`${serial}\n${name}`);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
