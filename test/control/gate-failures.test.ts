import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { CloudClient } from "../../src/cloud/client.js";
import { ControlGate } from "../../src/control/index.js";
import { cloudControl } from "../../src/sources/index.js";
import { type AuditLog, StoreError } from "../../src/store/index.js";
import { systemClock } from "../../src/time/clock.js";

const full = () => new StoreError("full", "data/energy2mqtt.db", "the disk holding data/energy2mqtt.db is full");

function gateWith(audit: AuditLog) {
  const logs: string[] = [];
  let requests = 0;
  const gate = new ControlGate({
    clock: systemClock,
    control: cloudControl(
      new CloudClient({
        baseUrl: "http://127.0.0.1:9/v1",
        token: "secret-token",
        onRequest: () => requests++,
      }),
    ),
    audit,
    devices: { inverter: () => undefined, charger: () => undefined },
    logger: pino({ level: "info" }, { write: (line: string) => logs.push(line) }),
  });
  const lines = () => logs.map((line) => JSON.parse(line) as { level: number; msg: string });
  return { gate, logs, lines, requests: () => requests };
}

describe("control gate when the audit log fails", () => {
  it("refuses a change whose row cannot be written first, sends nothing, warns, and tries again on the next", async () => {
    let writable = false;
    const rows: string[] = [];
    const audit: AuditLog = {
      record: (entry) => {
        rows.push(entry.message);
      },
      begin: (entry) => {
        if (!writable) throw full();
        rows.push(entry.message);
        return rows.length;
      },
      settle: (id, entry) => {
        rows[id - 1] = entry.message;
      },
      recent: () => [],
    };
    const { gate, logs, lines, requests } = gateWith(audit);
    const change = { kind: "setting", serial: "SD1", settingId: 71, value: 20 } as const;
    const outcome = await gate.apply(change, { via: "cli" });
    expect(outcome).toMatchObject({ ok: false, refused: true, verified: false, skipped: false });
    expect(outcome.message).toBe(
      "not applied: the audit log cannot be written: disk full at data/energy2mqtt.db (free some space, or set store.path to a disk with room); nothing was sent, and changes are refused until it can be written",
    );
    expect(requests()).toBe(0);
    expect(lines().find((line) => line.level === 40)?.msg).toBe(outcome.message);
    const action = await gate.act({ kind: "snapshot", op: "take", serial: "SD1", name: "x" }, { via: "cli" });
    expect(action).toMatchObject({ ok: false, refused: true, message: outcome.message });
    expect(rows).toEqual([]);

    writable = true;
    const again = await gate.apply(change, { via: "cli" });
    expect(again.message).toBe("Refused, nothing sent: inverter SD1 is not one this account has");
    expect(rows).toEqual([again.message]);
    expect(logs.join("\n")).not.toContain("secret-token");
  });

  it("still answers the requester when only the outcome cannot be written, and logs that the row is incomplete", async () => {
    const begun: string[] = [];
    const audit: AuditLog = {
      record: () => {
        throw full();
      },
      begin: (entry) => begun.push(entry.message),
      settle: () => {
        throw full();
      },
      recent: () => [],
    };
    const { gate, lines } = gateWith(audit);
    const outcome = await gate.apply({ kind: "setting", serial: "SD1", settingId: 71, value: 20 }, { via: "cli" });
    expect(outcome).toMatchObject({
      ok: false,
      message: "Refused, nothing sent: inverter SD1 is not one this account has",
    });
    // The begun row stays: it says the change was asked for and its outcome is not known.
    expect(begun).toEqual([expect.stringContaining("outcome not recorded yet")]);
    expect(lines().find((line) => line.level === 50)?.msg).toBe("the audit log could not record this change");
  });
});
