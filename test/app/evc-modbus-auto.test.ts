import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalChargerHouse } from "../helpers/local-charger-house.js";
import { observe } from "../helpers/mqtt-observer.js";

/*
 * Issue 37: under `source: auto` a charger with Modbus local control is on its LAN path like an
 * inverter on its dongle: its Path says local under its cloud uuid, its readings go on over
 * Modbus when the cloud refuses every call, and its current limit is written over Modbus rather
 * than sent to the cloud.
 */

type Json = Record<string, unknown>;

describe("a daemon under source: auto with the EV charger on Modbus", () => {
  let house: Awaited<ReturnType<typeof startLocalChargerHouse>>;
  const dir = mkdtempSync(join(tmpdir(), "e2m-evc-modbus-auto-"));
  const base = `e2mevcauto${process.pid}`;
  const prefix = `haevcauto${process.pid}`;
  let id = "";

  beforeAll(async () => {
    house = await startLocalChargerHouse({ path: "modbus", source: "auto", base, prefix, dir });
    id = house.uuid.toLowerCase();
  }, 60_000);

  afterAll(async () => {
    await house?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps the charger on Modbus, its readings and its limit, once the cloud refuses", async () => {
    const watcher = await observe(house.broker.url, [`${base}/#`]);
    const stateWhere = async (match: (state: Json) => boolean, since = 0): Promise<Json> => {
      const found = await watcher.waitFor(
        (m) => m.topic === `${base}/${id}` && m.at >= since && match(JSON.parse(m.payload) as Json),
        30_000,
      );
      return JSON.parse(found.payload) as Json;
    };
    try {
      await stateWhere((s) => s.path === "local" && s.online === "ON");
      await house.sim.admin("/subscription", { active: false });
      const since = Date.now();
      await house.sim.admin(`/ev-chargers/${house.uuid}/car`, { plugged: true, soc_percent: 40 });
      // Only Modbus can tell it now.
      await stateWhere((s) => s.status === "Preparing", since);

      await watcher.publish(`${base}/${id}/set/charge_power_limit`, "16");
      const answer = await watcher.waitFor((m) => m.topic === `${base}/${id}/result` && m.at >= since, 30_000);
      expect(JSON.parse(answer.payload)).toMatchObject({ ok: true });
      expect(house.modbus?.writes).toEqual([expect.objectContaining({ address: 91, values: [160] })]);
      await stateWhere((s) => s.current_offered === 16, since);
    } finally {
      await watcher.close();
    }
  }, 90_000);
});
