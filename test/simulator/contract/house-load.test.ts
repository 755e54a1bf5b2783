import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CloudClient } from "../../../src/cloud/client.js";
import { MIDDAY, startTestSimulator } from "../../helpers/simulator.js";

const INVERTER = "SD2024G001";
const CHARGER = "6b1f0c8e-2f51-4c1b-9d3a-5e7c2a9b0d11";
const MINUTE = 60_000;

/*
 * The admin API's load on a house (extra_load_w, ev_chargers_load): what a test needs to push the
 * site's import over a limit, seen through the cloud's live data as the daemon would see it. The
 * clock stands still between a change and its reading, so the difference is the load alone.
 */
describe("simulator: a load put on a house through the admin API", () => {
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let owner: CloudClient;
  const consumption = async () => (await owner.inverterData.systemDataLatest(INVERTER)).consumption ?? 0;

  beforeAll(async () => {
    sim = await startTestSimulator({ speed: 0, start: MIDDAY });
    owner = sim.clientFor("owner");
  });
  afterAll(async () => {
    await sim.stop();
  });

  it("adds a fixed load to the house's consumption until it is taken off", async () => {
    const before = await consumption();
    await sim.admin(`/devices/${INVERTER}`, { extra_load_w: 3000 });
    expect((await consumption()) - before).toBeCloseTo(3000, 0);
    // It stays on as the house runs on.
    await sim.admin("/clock", { advance_ms: 5 * MINUTE });
    const later = await consumption();
    await sim.admin(`/devices/${INVERTER}`, { extra_load_w: 0 });
    expect(later - (await consumption())).toBeCloseTo(3000, 0);
  });

  it("with ev_chargers_load, counts what the account's charger draws in the house's consumption", async () => {
    await sim.admin(`/devices/${INVERTER}`, { ev_chargers_load: true });
    await owner.evChargers.changeMode(CHARGER, "Boost");
    await sim.admin(`/ev-chargers/${CHARGER}/car`, { plugged: true, soc_percent: 30 });
    const idle = await consumption();
    expect(await owner.evChargers.startCharge(CHARGER)).toMatchObject({ ok: true });
    const drawn = sim.simulator.world.chargers.get(CHARGER)?.model.powerW() ?? 0;
    expect(drawn).toBeGreaterThan(7000);
    expect((await consumption()) - idle).toBeCloseTo(drawn, 0);
  });

  it("refuses a load on a device that is no house (an EV charger)", async () => {
    await expect(sim.admin(`/devices/${CHARGER}`, { extra_load_w: 1000 })).rejects.toThrow(/HTTP 4\d\d/);
  });
});
