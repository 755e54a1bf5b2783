import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openStore } from "../../src/store/index.js";
import type { TestBroker } from "../helpers/broker.js";
import { observe } from "../helpers/mqtt-observer.js";
import { startOcppHouse } from "../helpers/ocpp-house.js";

/*
 * Issue 37: what the central system sends beyond start, stop and a limit, "only through the
 * control gate and audited": ChangeAvailability and TriggerMessage, and a Reset (soft only) or an
 * UnlockConnector only when the request confirms it. Asked over MQTT on the bridge's requests
 * (`<base>/bridge/request/charger/<op>`), with the cloud refusing every call; what the simulated
 * charge point received is what the daemon sent.
 */

const CHARGE_POINT = "EVC-ACTIONS";
const PASSWORD = "actions-secret-1";
type Json = Record<string, unknown>;
const WAIT = { timeout: 30_000, interval: 20 };

describe("the charger's OCPP-only actions over MQTT, through the gate", () => {
  let house: Awaited<ReturnType<typeof startOcppHouse>>;
  const dir = mkdtempSync(join(tmpdir(), "e2m-ocpp-actions-"));
  const base = `e2mocppa${process.pid}`;
  const prefix = `haocppa${process.pid}`;
  let broker: TestBroker;
  let sim: Awaited<ReturnType<typeof startOcppHouse>>["sim"];
  let uuid = "";
  let watcher: Awaited<ReturnType<typeof observe>>;

  const point = () => {
    const found = sim.simulator.evc?.chargePoint(CHARGE_POINT);
    if (!found) throw new Error(`no simulated charge point ${CHARGE_POINT}`);
    return found;
  };
  const received = (action: string) => point().received.filter((call) => call.action === action);
  /** A bridge request and its answer. */
  const request = async (action: string, body: Json): Promise<Json> => {
    const since = Date.now();
    await watcher.publish(`${base}/bridge/request/${action}`, JSON.stringify(body));
    const answer = await watcher.waitFor((m) => m.topic === `${base}/bridge/response/${action}` && m.at >= since);
    return JSON.parse(answer.payload) as Json;
  };
  const stateOf = async (match: (state: Json) => boolean) => {
    const found = await watcher.waitFor(
      (m) => m.topic === `${base}/${uuid.toLowerCase()}` && match(JSON.parse(m.payload) as Json),
      30_000,
    );
    return JSON.parse(found.payload) as Json;
  };

  beforeAll(async () => {
    house = await startOcppHouse({ chargePoint: CHARGE_POINT, password: PASSWORD, base, prefix, dir });
    ({ broker, sim, uuid } = house);
    watcher = await observe(broker.url, [`${base}/#`]);
    await stateOf((state) => state.online === "ON");
    await sim.admin("/subscription", { active: false });
  }, 60_000);

  afterAll(async () => {
    await watcher?.close();
    await house?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a reset or an unlock that is not confirmed, sending nothing, and audits the refusal", async () => {
    const reset = await request("charger/reset", { uuid });
    expect(reset).toMatchObject({ status: "error" });
    expect(String(reset.error)).toContain('"confirm": true');
    expect(await request("charger/reset", { uuid, confirm: false })).toMatchObject({ status: "error" });
    // Soft only: nothing else may be asked of a reset.
    expect(await request("charger/reset", { uuid, confirm: true, type: "Hard" })).toMatchObject({
      status: "error",
    });
    const unlock = await request("charger/unlock", { uuid });
    expect(String(unlock.error)).toContain('"confirm": true');
    // The Home Assistant buttons the cloud takes as they are: over OCPP they name the confirmed way.
    for (const entity of ["restart", "unlock_connector"]) {
      const since = Date.now();
      await watcher.publish(`${base}/${uuid.toLowerCase()}/set/${entity}`, "PRESS");
      const answer = await watcher.waitFor((m) => m.topic === `${base}/${uuid.toLowerCase()}/result` && m.at >= since);
      expect(JSON.parse(answer.payload)).toMatchObject({ ok: false });
      expect(answer.payload).toContain("bridge/request/charger/");
    }
    expect(received("Reset")).toEqual([]);
    expect(received("UnlockConnector")).toEqual([]);

    const reader = openStore(house.storePath);
    const rows = reader.audit.recent({ limit: 50 }).filter((row) => row.target === uuid);
    reader.close();
    const refusals = rows.map((row) => [row.action, row.source, row.ok]);
    expect(refusals.filter(([action]) => action === "charger:reset")).toEqual([
      ["charger:reset", "bridge", false],
      ["charger:reset", "bridge", false],
      ["charger:reset", "bridge", false],
    ]);
    expect(refusals).toContainEqual(["charger:unlock", "bridge", false]);
    expect(refusals).toContainEqual(["command:restart-charger", "mqtt", false]);
    expect(refusals).toContainEqual(["command:unlock-connector", "mqtt", false]);
    expect(rows.find((row) => row.action === "charger:reset")?.targetKind).toBe("ev_charger");
  }, 60_000);

  it("asks the charger for a message (TriggerMessage) and takes it out of service and back (ChangeAvailability)", async () => {
    const statusesBefore = point().sent.filter((call) => call.action === "StatusNotification").length;
    expect(await request("charger/trigger", { uuid, message: "StatusNotification" })).toMatchObject({ status: "ok" });
    expect(received("TriggerMessage").map((call) => call.params)).toEqual([
      { requestedMessage: "StatusNotification", connectorId: 1 },
    ]);
    await vi.waitFor(
      () =>
        expect(point().sent.filter((call) => call.action === "StatusNotification").length).toBeGreaterThan(
          statusesBefore,
        ),
      WAIT,
    );
    expect(await request("charger/trigger", { uuid, message: "DiagnosticsStatusNotification" })).toMatchObject({
      status: "error",
    });
    expect(received("TriggerMessage")).toHaveLength(1);

    expect(await request("charger/availability", { uuid, available: false })).toMatchObject({ status: "ok" });
    await stateOf((state) => state.status === "Unavailable");
    expect(await request("charger/availability", { uuid, available: true })).toMatchObject({ status: "ok" });
    await stateOf((state) => state.status === "Available");
    expect(received("ChangeAvailability").map((call) => call.params)).toEqual([
      { connectorId: 0, type: "Inoperative" },
      { connectorId: 0, type: "Operative" },
    ]);
  }, 60_000);

  it("unlocks the connector and resets the charger (soft) when confirmed, each audited as the bridge's", async () => {
    expect(await request("charger/unlock", { uuid, confirm: true })).toMatchObject({ status: "ok" });
    expect(received("UnlockConnector").map((call) => call.params)).toEqual([{ connectorId: 1 }]);
    expect(await request("charger/reset", { uuid, confirm: true })).toMatchObject({ status: "ok" });
    expect(received("Reset").map((call) => call.params)).toEqual([{ type: "Soft" }]);
    // The charger restarts and boots again on the central system.
    await vi.waitFor(
      () => expect(point().sent.filter((call) => call.action === "BootNotification").length).toBeGreaterThan(1),
      WAIT,
    );

    const reader = openStore(house.storePath);
    const rows = reader.audit.recent({ limit: 50 }).filter((row) => row.target === uuid && row.ok);
    reader.close();
    expect(rows.map((row) => [row.action, row.source, row.requesterName]).reverse()).toEqual([
      ["charger:trigger", "bridge", "charger/trigger"],
      ["charger:availability", "bridge", "charger/availability"],
      ["charger:availability", "bridge", "charger/availability"],
      ["charger:unlock", "bridge", "charger/unlock"],
      ["charger:reset", "bridge", "charger/reset"],
    ]);
  }, 60_000);
});
