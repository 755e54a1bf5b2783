import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { runMigrations } from "../../../src/store/migrate.js";
import { MIGRATIONS } from "../../../src/store/migrations/index.js";
import { type Env, INVERTER, startEnv } from "./helpers.js";

const START = Date.UTC(2025, 0, 15, 9, 0);
const rules = [
  "timezone: Europe/London",
  "rules:",
  "  - name: reserve",
  "    when: { cron: '0 3 * * *' }",
  "    do: [{ setting: 71, value: 50 }]",
];

describe("a restore promise made before restores went per control", () => {
  let env: Env | undefined;
  afterEach(async () => {
    await env?.stop();
    env = undefined;
  });

  it("is migrated and kept on the next start: the value it recorded is put back", async () => {
    env = await startEnv({ start: START, rules });
    const original = await env.checker.inverterControl.readSetting(INVERTER, 71);
    if (!original.ok) throw new Error("setting 71 could not be read");
    // The old daemon (schema 3) changed the reserve in a window and was killed before its end.
    await env.checker.inverterControl.writeSetting(INVERTER, 71, 50);
    const db = new Database(env.dbPath);
    runMigrations(db, MIGRATIONS.slice(0, 3), env.dbPath);
    const oldPlan = {
      snapshots: [],
      local: [{ kind: "setting", serial: INVERTER, settingId: 71, value: original.value }],
    };
    db.prepare(
      `INSERT INTO rule_obligation (rule, created_at, window_start, window_end, restore, status)
       VALUES ('overnight', ?, ?, ?, ?, 'open')`,
    ).run(START - 3_600_000, START - 3_600_000, START - 1_800_000, JSON.stringify(oldPlan));
    db.close();

    const run = await env.startRuntime();
    const read = await env.checker.inverterControl.readSetting(INVERTER, 71);
    expect(read.ok && read.value).toBe(original.value);
    expect(run.store.ruleObligations.pending()).toEqual([]);
    const kept = run.store.ruleObligations.get(1);
    expect(kept).toMatchObject({
      status: "restored",
      restore: { snapshots: [], controls: [{ before: { kind: "setting", settingId: 71 } }] },
    });
    expect(kept?.restore.controls[0]?.wrote).toBeUndefined();
    expect(run.events).toContainEqual(expect.objectContaining({ type: "restore", rule: "overnight", ok: true }));
    await run.runtime.stop();
  });
});
