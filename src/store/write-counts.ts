import type { Database, Statement } from "better-sqlite3";
import { z } from "zod";
import { guard, StoreError } from "./errors.js";

/** One device's writes on one local day. */
export interface WriteCount {
  readonly serial: string;
  readonly writes: number;
  /** The 80% warning was given for this device and day. */
  readonly warned: boolean;
}

/** The writes the gate sent per device and local day (`YYYY-MM-DD`), kept across restarts. */
export interface WriteCounts {
  /** This device's count on the day; 0 writes when none were sent. */
  get(serial: string, day: string): WriteCount;
  /** Adds `writes` to the device's count on the day; the new total. */
  add(serial: string, day: string, writes: number): number;
  /** Marks the day's warning given; false when it already was. */
  markWarned(serial: string, day: string): boolean;
  /** Every device's count on the day. */
  day(day: string): WriteCount[];
}

const row = z.object({ serial: z.string(), writes: z.number().int().nonnegative(), warned: z.number() });

export class SqliteWriteCounts implements WriteCounts {
  private readonly one: Statement;
  private readonly all: Statement;
  private readonly increase: Statement;
  private readonly warn: Statement;

  constructor(
    db: Database,
    private readonly path: string,
  ) {
    this.one = db.prepare("SELECT serial, writes, warned FROM write_count WHERE serial = ? AND day = ?");
    this.all = db.prepare("SELECT serial, writes, warned FROM write_count WHERE day = ? ORDER BY serial");
    this.increase = db.prepare(
      `INSERT INTO write_count (serial, day, writes) VALUES (?, ?, ?)
       ON CONFLICT (serial, day) DO UPDATE SET writes = writes + excluded.writes
       RETURNING writes`,
    );
    this.warn = db.prepare(
      `INSERT INTO write_count (serial, day, writes, warned) VALUES (?, ?, 0, 1)
       ON CONFLICT (serial, day) DO UPDATE SET warned = 1 WHERE warned = 0`,
    );
  }

  get(serial: string, day: string): WriteCount {
    const found = guard(this.path, () => this.one.get(serial, day));
    return found === undefined ? { serial, writes: 0, warned: false } : this.read(found);
  }

  add(serial: string, day: string, writes: number): number {
    const found = guard(this.path, () => this.increase.get(serial, day, writes)) as { writes: number };
    return found.writes;
  }

  markWarned(serial: string, day: string): boolean {
    return guard(this.path, () => this.warn.run(serial, day).changes) > 0;
  }

  day(day: string): WriteCount[] {
    return guard(this.path, () => this.all.all(day)).map((found) => this.read(found));
  }

  private read(raw: unknown): WriteCount {
    const parsed = row.safeParse(raw);
    if (!parsed.success)
      throw new StoreError(
        "corrupt",
        this.path,
        `a write_count row in ${this.path} does not fit the schema: restore a backup, or move the file aside`,
      );
    return { serial: parsed.data.serial, writes: parsed.data.writes, warned: parsed.data.warned === 1 };
  }
}

/** The same in memory, for a daemon whose store could not be opened: counts then last until it stops. */
export class MemoryWriteCounts implements WriteCounts {
  private readonly counts = new Map<string, WriteCount>();

  get(serial: string, day: string): WriteCount {
    return this.counts.get(`${serial}\n${day}`) ?? { serial, writes: 0, warned: false };
  }

  add(serial: string, day: string, writes: number): number {
    const now = this.get(serial, day);
    this.counts.set(`${serial}\n${day}`, { ...now, writes: now.writes + writes });
    return now.writes + writes;
  }

  markWarned(serial: string, day: string): boolean {
    const now = this.get(serial, day);
    if (now.warned) return false;
    this.counts.set(`${serial}\n${day}`, { ...now, warned: true });
    return true;
  }

  day(day: string): WriteCount[] {
    return [...this.counts.entries()]
      .filter(([key]) => key.endsWith(`\n${day}`))
      .map(([, count]) => count)
      .sort((a, b) => a.serial.localeCompare(b.serial));
  }
}
