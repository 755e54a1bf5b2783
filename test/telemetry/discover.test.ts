import { afterEach, describe, expect, it, vi } from "vitest";
import { ServerError } from "../../src/cloud/errors.js";
import { emsEndpoints } from "../../src/cloud/sections/ems.js";
import { discoverInventory } from "../../src/sources/index.js";
import { startTestSimulator } from "../helpers/simulator.js";
import { CHARGER, EMS, HOUSE, SMART, START } from "./harness.js";

describe("discoverInventory", () => {
  let sim: Awaited<ReturnType<typeof startTestSimulator>> | undefined;
  afterEach(async () => {
    await sim?.stop();
    sim = undefined;
  });

  it("finds everything the demo account has", async () => {
    sim = await startTestSimulator({ speed: 0, start: START });
    const inventory = await discoverInventory(sim.clientFor("owner"));

    expect(inventory.account.name).toBe("demo-owner");
    expect(inventory.timezone).toBe("Europe/London");
    expect(inventory.sites.map((site) => site.id)).toEqual([61435]);

    const house = inventory.inverters.find((inverter) => inverter.serial === HOUSE);
    expect(house).toMatchObject({
      kind: "inverter",
      model: "GIV-HY5.0",
      dongleSerial: "WF2024D001",
      controllable: true,
      batteryCapacityKwh: 9.5,
      firmware: { arm: 193, dsp: 190, dongle: 904 },
    });
    expect(house?.emsSerial).toBeUndefined();
    expect(house?.settings).toHaveLength(79);
    expect(house?.presets.map((preset) => preset.identifier)).toContain("timed-charge");
    expect(house?.batteries).toHaveLength(1);
    expect(house?.meters).toHaveLength(1);

    expect(inventory.ems).toMatchObject([
      { kind: "ems", serial: EMS, model: "Plant EMS", inverterSerials: ["SE2024G101", "SE2024G102"] },
    ]);
    // A controllable EMS (is-controllable) carries its settings and presets, read through the inverter endpoints.
    const [plant] = inventory.ems;
    expect(plant?.controllable).toBe(true);
    expect(plant?.settings.length).toBeGreaterThan(0);
    expect(plant?.presets.map((preset) => preset.identifier)).toContain("plant-ems-enable-control");
    const children = inventory.inverters.filter((inverter) => inverter.emsSerial === EMS);
    expect(children.map((child) => child.serial).sort()).toEqual(["SE2024G101", "SE2024G102"]);
    for (const child of children) {
      expect(child.controllable).toBe(false);
      expect(child.settings).toEqual([]);
      expect(child.presets).toEqual([]);
    }
    expect(inventory.inverters).toHaveLength(3);

    expect(inventory.evChargers).toHaveLength(1);
    const charger = inventory.evChargers[0];
    expect(charger).toMatchObject({ kind: "ev_charger", uuid: CHARGER, serial: "EVC2024A001", alias: "Driveway" });
    expect(charger?.commands).toContain("start-charge");
    expect(charger?.commands).toContain("change-mode");

    expect(inventory.smartDevices).toEqual([{ kind: "smart_device", uuid: SMART, alias: "Dishwasher" }]);
  });

  it("sends every discovery request with the live priority", async () => {
    sim = await startTestSimulator({ speed: 0, start: START });
    const client = sim.clientFor("owner");
    const acquire = vi.spyOn(client.http.budget, "acquire");
    await discoverInventory(client);
    expect(acquire.mock.calls.length).toBeGreaterThan(5);
    expect(new Set(acquire.mock.calls.map(([priority]) => priority))).toEqual(new Set(["live"]));
  });

  it("reads listings the token may not read as empty (read-only token: no control scope)", async () => {
    sim = await startTestSimulator({ speed: 0, start: START });
    const inventory = await discoverInventory(sim.clientFor("readonly"));
    const house = inventory.inverters.find((inverter) => inverter.serial === HOUSE);
    expect(house?.controllable).toBe(true);
    expect(house?.settings).toEqual([]);
    expect(house?.presets).toEqual([]);
    expect(inventory.evChargers[0]?.commands).toEqual([]);
  });

  it("takes an EMS's children from the dongle serials when its system data cannot be read", async () => {
    sim = await startTestSimulator({ speed: 0, start: START });
    const client = sim.clientFor("owner");
    vi.spyOn(client.ems, "systemDataLatest").mockRejectedValue(new ServerError(emsEndpoints.systemDataLatest, 503));
    const inventory = await discoverInventory(client);
    expect(inventory.ems[0]?.inverterSerials).toEqual(["SE2024G101", "SE2024G102"]);
    expect(inventory.inverters.filter((inverter) => inverter.emsSerial === EMS)).toHaveLength(2);
  });

  it("stops on a refused token with the client's message", async () => {
    sim = await startTestSimulator({ speed: 0, start: START });
    await expect(discoverInventory(sim.clientFor("free"))).rejects.toThrow(/premium subscription/);
  });
});
