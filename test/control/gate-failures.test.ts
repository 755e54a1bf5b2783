import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { CloudClient } from "../../src/cloud/client.js";
import { ControlGate } from "../../src/control/index.js";
import { type AuditLog, StoreError } from "../../src/store/index.js";

describe("control gate when the audit log fails", () => {
  it("still answers the requester, and logs that the row is missing", async () => {
    const logs: string[] = [];
    const audit: AuditLog = {
      record: () => {
        throw new StoreError("full", "data/energy2mqtt.db", "the disk holding data/energy2mqtt.db is full");
      },
      recent: () => [],
    };
    const gate = new ControlGate({
      client: new CloudClient({ baseUrl: "http://127.0.0.1:9/v1", token: "secret-token" }),
      audit,
      devices: { inverter: () => undefined, charger: () => undefined },
      logger: pino({ level: "info" }, { write: (line: string) => logs.push(line) }),
    });
    const outcome = await gate.apply({ kind: "setting", serial: "SD1", settingId: 71, value: 20 }, { source: "cli" });
    expect(outcome).toMatchObject({
      ok: false,
      message: "Refused, nothing sent: inverter SD1 is not one this account has",
    });
    const errorLine = logs
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .find((line) => line.level === 50);
    expect(errorLine?.msg).toBe("the audit log could not record this change");
    expect(logs.join("\n")).not.toContain("secret-token");
  });
});
