import type { Migration } from "../migrate.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A stored plan in the shape of migration 3 (`local` values) in the shape of migration 4 (`controls`). */
export function perControlPlan(stored: unknown): unknown {
  if (!isRecord(stored) || !Array.isArray(stored.local) || "controls" in stored) return stored;
  const { local, ...rest } = stored;
  // What the rule wrote was not recorded then: each value is put back as it was, as before.
  return { ...rest, controls: local.map((before: unknown) => ({ before })) };
}

/**
 * Restores go per control: each promise lists the controls its rule changed, with the value
 * before and the value the rule wrote. Promises still open across the upgrade keep their
 * snapshots and their values (now without what was written); finished ones are rewritten too, so
 * every row reads with one schema.
 */
export const perControlRestore: Migration = {
  version: 4,
  name: "per-control restore",
  up(db) {
    const rows = db.prepare("SELECT id, restore FROM rule_obligation").all() as { id: number; restore: string }[];
    const update = db.prepare("UPDATE rule_obligation SET restore = ? WHERE id = ?");
    for (const row of rows) {
      let stored: unknown;
      try {
        stored = JSON.parse(row.restore);
      } catch {
        continue; // json_valid guards the column; a row that still fails is reported as corrupt when read.
      }
      const plan = perControlPlan(stored);
      if (plan !== stored) update.run(JSON.stringify(plan), row.id);
    }
  },
};
