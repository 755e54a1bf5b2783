import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuditEntryInput, openStore, type Store, StoreError } from "../../src/store/index.js";
import { tempDir } from "./helpers/temp-dir.js";

const dir = tempDir();
let store: Store;
const path = dir.path("audit.db");

beforeAll(() => {
  store = openStore(path);
});
afterAll(() => {
  store.close();
  dir.remove();
});

const entry = (overrides: Partial<AuditEntryInput>): AuditEntryInput => ({
  at: 1_750_000_000_000,
  source: "mqtt",
  requesterName: "number.battery_reserve",
  targetKind: "inverter",
  target: "SD2024G001",
  action: "setting:71",
  request: { kind: "setting", serial: "SD2024G001", settingId: 71, value: 20 },
  ok: true,
  code: -1,
  verified: true,
  skipped: false,
  message: "Battery Reserve % Limit set to 20",
  ...overrides,
});

describe("audit log", () => {
  it("round-trips an entry", () => {
    store.audit.record(entry({}));
    expect(store.audit.recent({ limit: 1 })).toEqual([{ id: expect.any(Number), ...entry({}) }]);
  });

  it("keeps optional fields absent and booleans as booleans", () => {
    store.audit.record(
      entry({
        requesterName: undefined,
        code: undefined,
        ok: false,
        verified: false,
        skipped: true,
        at: 1_750_000_000_001,
      }),
    );
    const [stored] = store.audit.recent({ limit: 1 });
    expect(stored?.requesterName).toBeUndefined();
    expect(stored?.code).toBeUndefined();
    expect(stored).toMatchObject({ ok: false, verified: false, skipped: true, at: 1_750_000_000_001 });
  });

  it("refuses an entry that does not fit before writing it", () => {
    expect(() => store.audit.record(entry({ target: "" }))).toThrow();
    expect(store.audit.recent({ limit: 1 })[0]?.target).toBe("SD2024G001");
  });

  it("lists the latest first, per target, with a limit", () => {
    store.audit.record(
      entry({ target: "6b1f0c8e", targetKind: "ev_charger", action: "command:change-mode", at: 1_750_000_000_010 }),
    );
    store.audit.record(entry({ at: 1_750_000_000_020, message: "newest" }));
    const forInverter = store.audit.recent({ target: "SD2024G001" });
    expect(forInverter.map((row) => row.at)).toEqual([1_750_000_000_020, 1_750_000_000_001, 1_750_000_000_000]);
    expect(store.audit.recent({ target: "6b1f0c8e" })).toHaveLength(1);
    expect(store.audit.recent({ limit: 2 }).map((row) => row.message)).toEqual(["newest", expect.any(String)]);
  });

  it("writes a change's row before its outcome, and settles that one row with the outcome", () => {
    const target = "SD-BEGIN";
    const id = store.audit.begin(entry({ target, at: 1_750_000_000_030, ok: false, verified: false, message: "sent" }));
    expect(store.audit.recent({ target })).toEqual([
      expect.objectContaining({ id, ok: false, verified: false, message: "sent", at: 1_750_000_000_030 }),
    ]);
    store.audit.settle(id, entry({ target, at: 1_750_000_000_031, code: undefined, message: "applied" }));
    expect(store.audit.recent({ target })).toEqual([
      { id, ...entry({ target, at: 1_750_000_000_031, code: undefined, message: "applied" }) },
    ]);
  });

  it("uses the (target, at) index for a target's history", () => {
    const db = new Database(path, { readonly: true });
    const plan = db
      .prepare("EXPLAIN QUERY PLAN SELECT * FROM audit_log WHERE target = ? ORDER BY at DESC LIMIT 5")
      .all("x")
      .map((row) => (row as { detail: string }).detail)
      .join(" ");
    db.close();
    expect(plan).toContain("audit_log_target_at");
  });

  it("refuses a row that does not fit the schema on the way out", () => {
    const badPath = dir.path("bad-row.db");
    openStore(badPath).close();
    const db = new Database(badPath);
    db.pragma("ignore_check_constraints = ON");
    db.prepare(
      "INSERT INTO audit_log (at, source, target_kind, target, action, request, ok, verified, skipped, message) VALUES (1, 'cli', 'inverter', 'x', 'a', '{}', 2, 1, 0, 'm')",
    ).run();
    db.close();
    const reopened = openStore(badPath);
    try {
      expect(() => reopened.audit.recent()).toThrow(StoreError);
      expect(() => reopened.audit.recent()).toThrow(/does not fit the schema \(ok: /);
    } finally {
      reopened.close();
    }
  });
});
