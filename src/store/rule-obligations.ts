import type { Database, Statement } from "better-sqlite3";
import { z } from "zod";
import { guard, StoreError } from "./errors.js";

const record = z.record(z.string(), z.unknown());

/** One value to put back, recorded before a rule changed it. */
export const savedValue = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("preset"), serial: z.string(), preset: z.string(), fields: record }),
  z.object({
    kind: z.literal("setting"),
    serial: z.string(),
    settingId: z.number().int(),
    value: z.union([z.string(), z.number(), z.boolean()]),
  }),
  z.object({ kind: z.literal("ev-command"), uuid: z.string(), command: z.string(), request: record }),
]);
export type SavedValue = z.infer<typeof savedValue>;

/** One control a rule changed: what it held before the rule's change, and what the rule wrote. */
export const controlRestore = z.object({
  before: savedValue,
  /**
   * What the rule wrote: the restore puts `before` back only while the device still holds this.
   * Left out in promises kept from before restores went per control (migration 4): put back as they were.
   */
  wrote: savedValue.optional(),
});
export type ControlRestore = z.infer<typeof controlRestore>;

/**
 * What a rule promised to put back: each control it changed. `snapshots` (whole-inverter API
 * snapshots) only appear in promises made before restores went per control; new ones have none.
 */
export const restorePlan = z.object({
  snapshots: z.array(z.object({ serial: z.string(), name: z.string() })),
  controls: z.array(controlRestore),
});
export type RestorePlan = z.infer<typeof restorePlan>;

export const obligationStatus = z.enum(["open", "restored", "failed"]);

export const ruleObligation = z.object({
  id: z.number().int(),
  rule: z.string(),
  createdAt: z.number().int(),
  windowStart: z.number().int(),
  windowEnd: z.number().int(),
  restore: restorePlan,
  status: obligationStatus,
  finishedAt: z.number().int().optional(),
  message: z.string().optional(),
});
export type RuleObligation = z.infer<typeof ruleObligation>;

export interface NewObligation {
  readonly rule: string;
  readonly createdAt: number;
  readonly windowStart: number;
  readonly windowEnd: number;
  readonly restore: RestorePlan;
}

/** Rules' promises to restore, and each rule's persisted on/off switch. */
export interface RuleObligations {
  open(obligation: NewObligation): RuleObligation;
  /** Replaces what an open obligation will put back, and when. */
  update(id: number, change: { readonly windowEnd?: number; readonly restore?: RestorePlan }): void;
  finish(id: number, status: "restored" | "failed", at: number, message: string): void;
  /** Every open obligation, oldest window end first. */
  pending(): RuleObligation[];
  get(id: number): RuleObligation | undefined;
  /** The rule's switch as last set; undefined when never set. */
  enabled(rule: string): boolean | undefined;
  setEnabled(rule: string, enabled: boolean, at: number): void;
}

const COLUMNS = "id, rule, created_at, window_start, window_end, restore, status, finished_at, message";

const row = z.object({
  id: z.number(),
  rule: z.string(),
  created_at: z.number(),
  window_start: z.number(),
  window_end: z.number(),
  restore: z.string(),
  status: z.string(),
  finished_at: z.number().nullable(),
  message: z.string().nullable(),
});

export class SqliteRuleObligations implements RuleObligations {
  private readonly insert: Statement;
  private readonly byId: Statement;
  private readonly openOnes: Statement;
  private readonly setEnd: Statement;
  private readonly setRestore: Statement;
  private readonly close: Statement;
  private readonly readState: Statement;
  private readonly writeState: Statement;

  constructor(
    db: Database,
    private readonly path: string,
  ) {
    this.insert = db.prepare(
      `INSERT INTO rule_obligation (rule, created_at, window_start, window_end, restore, status)
       VALUES (?, ?, ?, ?, ?, 'open')`,
    );
    this.byId = db.prepare(`SELECT ${COLUMNS} FROM rule_obligation WHERE id = ?`);
    this.openOnes = db.prepare(`SELECT ${COLUMNS} FROM rule_obligation WHERE status = 'open' ORDER BY window_end, id`);
    this.setEnd = db.prepare("UPDATE rule_obligation SET window_end = ? WHERE id = ? AND status = 'open'");
    this.setRestore = db.prepare("UPDATE rule_obligation SET restore = ? WHERE id = ? AND status = 'open'");
    this.close = db.prepare(
      "UPDATE rule_obligation SET status = ?, finished_at = ?, message = ? WHERE id = ? AND status = 'open'",
    );
    this.readState = db.prepare("SELECT enabled FROM rule_state WHERE name = ?");
    this.writeState = db.prepare(
      `INSERT INTO rule_state (name, enabled, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at`,
    );
  }

  open(obligation: NewObligation): RuleObligation {
    const plan = restorePlan.parse(obligation.restore);
    const id = guard(this.path, () =>
      Number(
        this.insert.run(
          obligation.rule,
          obligation.createdAt,
          obligation.windowStart,
          obligation.windowEnd,
          JSON.stringify(plan),
        ).lastInsertRowid,
      ),
    );
    return { id, ...obligation, restore: plan, status: "open" };
  }

  update(id: number, change: { readonly windowEnd?: number; readonly restore?: RestorePlan }): void {
    guard(this.path, () => {
      if (change.windowEnd !== undefined) this.setEnd.run(change.windowEnd, id);
      if (change.restore !== undefined) this.setRestore.run(JSON.stringify(restorePlan.parse(change.restore)), id);
    });
  }

  finish(id: number, status: "restored" | "failed", at: number, message: string): void {
    guard(this.path, () => this.close.run(status, at, message, id));
  }

  pending(): RuleObligation[] {
    return guard(this.path, () => this.openOnes.all()).map((found) => this.read(found));
  }

  get(id: number): RuleObligation | undefined {
    const found = guard(this.path, () => this.byId.get(id));
    return found === undefined ? undefined : this.read(found);
  }

  enabled(rule: string): boolean | undefined {
    const found = guard(this.path, () => this.readState.get(rule)) as { enabled: number } | undefined;
    return found === undefined ? undefined : found.enabled === 1;
  }

  setEnabled(rule: string, enabled: boolean, at: number): void {
    guard(this.path, () => this.writeState.run(rule, enabled ? 1 : 0, at));
  }

  private read(raw: unknown): RuleObligation {
    const parsed = row.safeParse(raw);
    const plan = parsed.success ? restorePlan.safeParse(safeJson(parsed.data.restore)) : undefined;
    const status = parsed.success ? obligationStatus.safeParse(parsed.data.status) : undefined;
    if (!parsed.success || !plan?.success || !status?.success) {
      throw new StoreError(
        "corrupt",
        this.path,
        `a rule_obligation row in ${this.path} does not fit the schema: restore a backup, or move the file aside`,
      );
    }
    const data = parsed.data;
    return {
      id: data.id,
      rule: data.rule,
      createdAt: data.created_at,
      windowStart: data.window_start,
      windowEnd: data.window_end,
      restore: plan.data,
      status: status.data,
      ...(data.finished_at === null ? {} : { finishedAt: data.finished_at }),
      ...(data.message === null ? {} : { message: data.message }),
    };
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
