import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/index.js";
import { startLocalChargerHouse } from "../helpers/local-charger-house.js";
import { observe } from "../helpers/mqtt-observer.js";

/*
 * Issue 37: a charger on OCPP with no cloud at all. The demo house under `source: local`: the
 * charger's identity comes from the configuration (the charge point's `charger` serial, and the
 * uuid the cloud once listed it under), its readings over the daemon's central system reach MQTT
 * under the same unique_ids, and a charge started over MQTT goes out as RemoteStartTransaction.
 */

type Json = Record<string, unknown>;

describe("a daemon under source: local with the EV charger on OCPP only", () => {
  let house: Awaited<ReturnType<typeof startLocalChargerHouse>>;
  const dir = mkdtempSync(join(tmpdir(), "e2m-ocpp-local-"));
  const base = `e2mocpplocal${process.pid}`;
  const prefix = `haocpplocal${process.pid}`;
  let id = "";

  beforeAll(async () => {
    house = await startLocalChargerHouse({ path: "ocpp", base, prefix, dir });
    id = house.uuid.toLowerCase();
  }, 60_000);

  afterAll(async () => {
    await house?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("reads and commands the charger over OCPP alone, under the entities it has over the cloud", async () => {
    const watcher = await observe(house.broker.url, [`${base}/#`, `${prefix}/#`]);
    const stateWhere = async (match: (state: Json) => boolean, since = 0): Promise<Json> => {
      const found = await watcher.waitFor(
        (m) => m.topic === `${base}/${id}` && m.at >= since && match(JSON.parse(m.payload) as Json),
        30_000,
      );
      return JSON.parse(found.payload) as Json;
    };
    try {
      await stateWhere((s) => s.online === "ON" && s.status === "Available");
      await stateWhere((s) => s.path === "local");
      const status = await watcher.waitFor((m) => m.topic === `${prefix}/sensor/${id}/status/config`, 30_000);
      expect(status.payload).toContain(`"unique_id":"energy2mqtt_${id}_status"`);
      // What only OCPP carries is offered too.
      await watcher.waitFor((m) => m.topic === `${prefix}/button/${id}/unlock_connector/config`, 30_000);

      const since = Date.now();
      await house.sim.admin(`/ev-chargers/${house.uuid}/car`, { plugged: true, soc_percent: 40 });
      await stateWhere((s) => s.status === "Preparing", since);
      await watcher.publish(`${base}/${id}/set/start_charge`, "PRESS");
      const answer = await watcher.waitFor((m) => m.topic === `${base}/${id}/result` && m.at >= since, 30_000);
      expect(JSON.parse(answer.payload)).toMatchObject({ ok: true });
      await stateWhere((s) => s.status === "Charging", since);
      const sent = house.sim.simulator.evc?.chargePoint(house.chargePoint)?.sent.map((call) => call.action) ?? [];
      expect(sent).toContain("StartTransaction");
    } finally {
      await watcher.close();
    }
    const reader = openStore(house.storePath);
    const entries = reader.audit.recent({ limit: 20 }).filter((entry) => entry.target === house.uuid);
    reader.close();
    expect(entries.map((entry) => [entry.action, entry.ok])).toContainEqual(["command:start-charge", true]);
  }, 90_000);
});
