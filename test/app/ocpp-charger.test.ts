import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/index.js";
import type { TestBroker } from "../helpers/broker.js";
import { observe } from "../helpers/mqtt-observer.js";
import { startOcppHouse } from "../helpers/ocpp-house.js";

/*
 * Issue 37: the demo house's EV charger on the daemon's own OCPP central system, under
 * `source: auto`. The simulator's charger connects to it as a charge point (the same simulated
 * charger the cloud reports); once the cloud refuses every call (the subscription switch), the
 * charger's state still moves, over OCPP alone, under the same entities.
 */

const CHARGE_POINT = "EVC-DEMO";
const PASSWORD = "demo-secret-1";
type Json = Record<string, unknown>;

describe("the EV charger over OCPP, the cloud refusing", () => {
  let house: Awaited<ReturnType<typeof startOcppHouse>>;
  const dir = mkdtempSync(join(tmpdir(), "e2m-ocpp-"));
  const base = `e2mocpp${process.pid}`;
  const prefix = `haocpp${process.pid}`;
  let broker: TestBroker;
  let sim: Awaited<ReturnType<typeof startOcppHouse>>["sim"];
  let uuid = "";

  beforeAll(async () => {
    house = await startOcppHouse({ chargePoint: CHARGE_POINT, password: PASSWORD, base, prefix, dir });
    ({ broker, sim, uuid } = house);
  }, 60_000);

  afterAll(async () => {
    await house?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const stateOf = async (watcher: Awaited<ReturnType<typeof observe>>, match: (state: Json) => boolean) => {
    const topic = `${base}/${uuid.toLowerCase()}`;
    const found = await watcher.waitFor((m) => m.topic === topic && match(JSON.parse(m.payload) as Json), 30_000);
    return JSON.parse(found.payload) as Json;
  };

  it("keeps the charger's entities moving over OCPP once the cloud refuses every call", async () => {
    const watcher = await observe(broker.url, [`${base}/#`, `${prefix}/#`]);
    try {
      // The charge point has connected and the charger's twin over OCPP answers.
      await stateOf(watcher, (state) => state.online === "ON");
      const admin = await sim.admin("/ocpp", undefined, "GET");
      expect(JSON.stringify(admin)).toContain('"connected":true');

      await sim.admin("/subscription", { active: false });
      const since = Date.now();
      await sim.admin(`/ev-chargers/${uuid}/car`, { plugged: true, soc_percent: 40 });
      // Only OCPP can tell it now: the cloud answers every request as refused.
      const plugged = await watcher.waitFor((m) => {
        if (m.topic !== `${base}/${uuid.toLowerCase()}` || m.at < since) return false;
        return (JSON.parse(m.payload) as Json).status === "Preparing";
      }, 30_000);
      expect(JSON.parse(plugged.payload)).toMatchObject({ status: "Preparing", online: "ON" });
      // The same entities as over the cloud: the status sensor's discovery is the charger's own.
      const config = watcher.latest.get(`${prefix}/sensor/${uuid.toLowerCase()}/status/config`);
      expect(config?.payload).toContain(`"unique_id":"energy2mqtt_${uuid.toLowerCase()}_status"`);
    } finally {
      await watcher.close();
    }
  }, 90_000);

  it("starts, limits and stops the charge over OCPP through the gate, each change audited", async () => {
    const id = uuid.toLowerCase();
    const watcher = await observe(broker.url, [`${base}/#`]);
    // What the simulated charge point sent the central system, oldest first.
    const sentCalls = async (): Promise<string[]> =>
      (sim.simulator.evc?.chargePoint(CHARGE_POINT)?.sent ?? []).map((call) => call.action);
    const command = async (entity: string, payload: string) => {
      const since = Date.now();
      await watcher.publish(`${base}/${id}/set/${entity}`, payload);
      const answer = await watcher.waitFor((m) => m.topic === `${base}/${id}/result` && m.at >= since, 30_000);
      return JSON.parse(answer.payload) as Json;
    };
    try {
      expect(await command("start_charge", "PRESS")).toMatchObject({ ok: true });
      await stateOf(watcher, (state) => state.status === "Charging");
      // The cloud refuses everything: the charge started because the charge point was told over OCPP.
      expect(await sentCalls()).toContain("StartTransaction");
      // The charge point's meter values reach the charger's entities.
      await stateOf(watcher, (state) => typeof state.power === "number" && state.power > 0);

      // A current limit is a charging profile for this session: the simulated charger holds it.
      const point = sim.simulator.evc?.chargePoint(CHARGE_POINT);
      expect(point?.charger.localLimit()).toBeNull();
      expect(await command("charge_power_limit", "10")).toMatchObject({ ok: true });
      expect(point?.charger.localLimit()).toBe(10);

      expect(await command("stop_charge", "PRESS")).toMatchObject({ ok: true });
      await stateOf(watcher, (state) => state.status === "Finishing" || state.status === "Preparing");
      expect(await sentCalls()).toContain("StopTransaction");
      // The session, with its energy, is the store's and on MQTT.
      const ended = await stateOf(watcher, (state) => typeof state.session_energy === "number");
      expect(ended.session_energy).toBeGreaterThan(0);
    } finally {
      await watcher.close();
    }
    // Every change is in the audit log, as asked over MQTT.
    const reader = openStore(house.storePath);
    const entries = reader.audit.recent({ limit: 20 });
    // The session is the daemon's own: in its store, with its energy, no cloud needed.
    const [session] = reader.ocppSessions.recent(1, CHARGE_POINT);
    reader.close();
    expect(session).toMatchObject({ idTag: "energy2mqtt", stopReason: "Remote" });
    expect(session?.stoppedAt).toBeDefined();
    expect(session?.energyKwh).toBeGreaterThan(0);
    const actions = entries.filter((entry) => entry.target === uuid).map((entry) => [entry.action, entry.ok]);
    expect(actions).toEqual(
      expect.arrayContaining([
        ["command:stop-charge", true],
        ["command:adjust-charge-power-limit", true],
        ["command:start-charge", true],
      ]),
    );
  }, 90_000);
});
