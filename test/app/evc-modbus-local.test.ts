import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/index.js";
import { startLocalChargerHouse } from "../helpers/local-charger-house.js";
import { observe } from "../helpers/mqtt-observer.js";

/*
 * Issue 37: the EV charger over Modbus TCP, a daemon path. The demo house under `source: local`
 * (no cloud at all) with its charger's registers served by the simulator: its readings reach
 * MQTT under the unique_ids it has over the cloud, a current limit asked over MQTT is written over
 * Modbus, read back and audited, a write off the allowlist never leaves, and a charger that
 * reverts the write is reported so.
 */

type Json = Record<string, unknown>;
/** What the simulator's recorder says of the charger's Modbus server. */
interface ModbusAdmin {
  readonly data: {
    readonly writes: readonly {
      readonly address: number;
      readonly values: readonly number[];
      readonly outcome: string;
    }[];
  };
}

describe("a daemon under source: local with the EV charger on Modbus", () => {
  let house: Awaited<ReturnType<typeof startLocalChargerHouse>>;
  const dir = mkdtempSync(join(tmpdir(), "e2m-evc-modbus-"));
  const base = `e2mevcmb${process.pid}`;
  const prefix = `haevcmb${process.pid}`;
  let id = "";

  beforeAll(async () => {
    house = await startLocalChargerHouse({ path: "modbus", base, prefix, dir });
    id = house.uuid.toLowerCase();
  }, 60_000);

  afterAll(async () => {
    await house?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const recorded = async (): Promise<ModbusAdmin["data"]["writes"]> =>
    ((await house.sim.admin(`/ev-chargers/${house.uuid}/modbus`, undefined, "GET")) as ModbusAdmin).data.writes;

  const commander = async () => {
    const watcher = await observe(house.broker.url, [`${base}/#`, `${prefix}/#`]);
    const command = async (entity: string, payload: string): Promise<Json> => {
      const since = Date.now();
      await watcher.publish(`${base}/${id}/set/${entity}`, payload);
      const answer = await watcher.waitFor((m) => m.topic === `${base}/${id}/result` && m.at >= since, 30_000);
      return JSON.parse(answer.payload) as Json;
    };
    const stateWhere = async (match: (state: Json) => boolean, since = 0): Promise<Json> => {
      const found = await watcher.waitFor(
        (m) => m.topic === `${base}/${id}` && m.at >= since && match(JSON.parse(m.payload) as Json),
        30_000,
      );
      return JSON.parse(found.payload) as Json;
    };
    return { watcher, command, stateWhere };
  };

  it("publishes the charger's registers under the entities it has over the cloud, its path local", async () => {
    const { watcher, stateWhere } = await commander();
    try {
      const state = await stateWhere((s) => s.online === "ON" && s.current_offered !== undefined);
      expect(state).toMatchObject({ status: "Available", online: "ON", power: 0, current_offered: 32 });
      expect(typeof state.energy).toBe("number");
      const status = await watcher.waitFor((m) => m.topic === `${prefix}/sensor/${id}/status/config`, 30_000);
      expect(status.payload).toContain(`"unique_id":"energy2mqtt_${id}_status"`);
      await stateWhere((s) => s.path === "local");
      const limit = await watcher.waitFor(
        (m) => m.topic === `${prefix}/number/${id}/charge_power_limit/config`,
        30_000,
      );
      expect(limit.payload).toContain(`"unique_id":"energy2mqtt_${id}_charge_power_limit"`);
    } finally {
      await watcher.close();
    }
  }, 60_000);

  it("writes a current limit asked over MQTT over Modbus, reads it back and audits it", async () => {
    const { watcher, command, stateWhere } = await commander();
    try {
      const since = Date.now();
      const answer = await command("charge_power_limit", "10");
      expect(answer).toMatchObject({ ok: true });
      expect(String(answer.message)).toContain("over Modbus");
      expect(await recorded()).toEqual([expect.objectContaining({ address: 91, values: [100], outcome: "applied" })]);
      // Read again at once after the write: the limit in force reaches the charger's state.
      await stateWhere((s) => s.current_offered === 10, since);
    } finally {
      await watcher.close();
    }
    const reader = openStore(house.storePath);
    const entries = reader.audit.recent({ limit: 20 }).filter((entry) => entry.target === house.uuid);
    reader.close();
    expect(entries.map((entry) => [entry.action, entry.ok])).toContainEqual([
      "command:adjust-charge-power-limit",
      true,
    ]);
  }, 60_000);

  it("never sends a write the allowlist does not hold", async () => {
    const { watcher, command } = await commander();
    try {
      const before = (await recorded()).length;
      // Plug and go is a register the charger takes, but not one the daemon writes over Modbus.
      const answer = await command("plug_and_go", "ON");
      expect(answer).toMatchObject({ ok: false });
      // Out of the charger's 6..32 A: refused before anything is sent.
      expect(await command("charge_power_limit", "40")).toMatchObject({ ok: false });
      expect((await recorded()).length).toBe(before);
    } finally {
      await watcher.close();
    }
  }, 60_000);

  it("reports a limit the charger took and went back on as not done, in the result and the audit", async () => {
    const { watcher, command } = await commander();
    try {
      await house.sim.admin(`/ev-chargers/${house.uuid}/modbus`, { revert_after_s: 1 });
      const answer = await command("charge_power_limit", "12");
      expect(answer).toMatchObject({ ok: false });
      expect(String(answer.message)).toMatch(/went back/);
      // It was sent and applied, then reverted by the charger itself.
      expect(await recorded()).toContainEqual(
        expect.objectContaining({ address: 91, values: [120], outcome: "applied" }),
      );
    } finally {
      await house.sim.admin(`/ev-chargers/${house.uuid}/modbus`, { revert_after_s: null });
      await watcher.close();
    }
    const reader = openStore(house.storePath);
    const entries = reader.audit.recent({ limit: 20 }).filter((entry) => entry.target === house.uuid);
    reader.close();
    const reverted = entries.find((entry) => entry.action === "command:adjust-charge-power-limit" && !entry.ok);
    expect(reverted?.message).toMatch(/went back/);
  }, 60_000);
  it("starts and stops a charge over Modbus, its session on MQTT, each command audited", async () => {
    const { watcher, command, stateWhere } = await commander();
    try {
      const since = Date.now();
      await house.sim.admin(`/ev-chargers/${house.uuid}/car`, { plugged: true, soc_percent: 40 });
      await stateWhere((s) => s.status === "Preparing", since);
      expect(await command("start_charge", "PRESS")).toMatchObject({ ok: true });
      const charging = await stateWhere((s) => s.status === "Charging" && typeof s.session_started_at === "string");
      expect(charging.power).toBeGreaterThan(0);
      expect(await command("stop_charge", "PRESS")).toMatchObject({ ok: true });
      // The registers clear once the session ends: it is kept, closed, with its energy.
      const ended = await stateWhere((s) => s.status === "Finishing" && typeof s.session_energy === "number", since);
      expect(ended.session_started_at).toBe(charging.session_started_at);
    } finally {
      await watcher.close();
    }
    const reader = openStore(house.storePath);
    const entries = reader.audit.recent({ limit: 20 }).filter((entry) => entry.target === house.uuid);
    reader.close();
    const actions = entries.map((entry) => [entry.action, entry.ok]);
    expect(actions).toContainEqual(["command:start-charge", true]);
    expect(actions).toContainEqual(["command:stop-charge", true]);
  }, 60_000);
});
