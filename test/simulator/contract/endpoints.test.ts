import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CloudClient } from "../../../src/cloud/client.js";
import { startTestSimulator } from "../../helpers/simulator.js";

const START = Date.UTC(2025, 5, 15, 11, 0, 0);
const INVERTER = "SD2024G001";
const CHARGER = "6b1f0c8e-2f51-4c1b-9d3a-5e7c2a9b0d11";
const SMART = "9d7e4c2a-1b3f-4e5d-8a6c-0f1e2d3c4b5a";

describe("simulator through the client: every read endpoint", () => {
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let owner: CloudClient;
  beforeAll(async () => {
    sim = await startTestSimulator({ speed: 0, start: START });
    owner = sim.clientFor("owner");
  });
  afterAll(async () => {
    await sim.stop();
  });

  it("account and SSO accounts", async () => {
    const account = await owner.account.get();
    expect(account).toMatchObject({ id: 1001, name: "demo-owner", standard_timezone: "Europe/London" });
    expect((await owner.account.ssoAccounts()).map((a) => a.id)).toEqual([1001]);
  });

  it("communication devices: the house, the EMS and its children, one by one and listed", async () => {
    const devices = await owner.communicationDevices.list().all();
    const inverters = devices.map((d) => d.inverter?.serial);
    expect(inverters).toEqual(expect.arrayContaining([INVERTER, "EM2024E001", "SE2024G101", "SE2024G102"]));
    const house = await owner.communicationDevices.get("WF2024D001");
    expect(house.inverter?.connections?.batteries.length).toBeGreaterThan(0);
    expect(house.inverter?.flags).toContain("is-controllable");
    const child = devices.find((d) => d.inverter?.serial === "SE2024G101");
    expect(child?.inverter?.flags).not.toContain("is-controllable");
  });

  it("pages with the service's envelope and default page size", async () => {
    const response = await fetch(`${sim.simulator.url}/communication-device?pageSize=2&page=2`, {
      headers: { authorization: `Bearer ${sim.simulator.tokens.owner}` },
    });
    const body = (await response.json()) as {
      data: unknown[];
      links: Record<string, unknown>;
      meta: Record<string, unknown>;
    };
    expect(body.data).toHaveLength(2);
    expect(body.meta).toMatchObject({ current_page: 2, from: 3, last_page: 2, per_page: 2, to: 4, total: 4 });
    expect(body.links.next).toBeNull();
    expect(String(body.links.prev)).toMatch(/page=1/);
    expect(String(body.meta.path)).toMatch(/\/v1\/communication-device$/);
    const whole = (await (
      await fetch(`${sim.simulator.url}/communication-device`, {
        headers: { authorization: `Bearer ${sim.simulator.tokens.owner}` },
      })
    ).json()) as { meta: { per_page: number } };
    expect(whole.meta.per_page).toBe(15);
  });

  it("EMS system data sums its inverters", async () => {
    const ems = await owner.ems.systemDataLatest("EM2024E001");
    expect(ems.inverters.map((i) => i.serial_number)).toEqual(["SE2024G101", "SE2024G102"]);
    const socs = ems.inverters.map((i) => i.soc ?? 0);
    expect(socs.every((soc) => soc >= 0 && soc <= 100)).toBe(true);
    expect(ems.meters.length).toBe(2);
  });

  it("live data and energy counters agree with energy conservation", async () => {
    const live = await owner.inverterData.systemDataLatest(INVERTER);
    expect(live.solar?.power).toBeGreaterThan(0);
    const counters = await owner.inverterData.meterDataLatest(INVERTER);
    const t = counters.total;
    const supplied = (t?.solar ?? 0) + (t?.grid?.import ?? 0) + (t?.battery?.discharge ?? 0);
    const used = (t?.consumption ?? 0) + (t?.grid?.export ?? 0) + (t?.battery?.charge ?? 0);
    // Battery losses sit between charge and discharge; the rest balances.
    expect(Math.abs(supplied - used)).toBeLessThan(0.1 * used);
  });

  it("data points every 5 minutes for a past day, paginated", async () => {
    const points = await owner.inverterData.dataPoints(INVERTER, "2025-06-10", { pageSize: 100 }).all();
    expect(points).toHaveLength(288);
    const first = Date.parse(points[0]?.time ?? "");
    const second = Date.parse(points[1]?.time ?? "");
    expect(second - first).toBe(300_000);
  });

  it("energy flows: daily equals the sum of half-hourly", async () => {
    const base = { start_time: "2025-06-10 00:00:00", end_time: "2025-06-11 00:00:00" };
    const halfHourly = await owner.energyFlows.flows(INVERTER, { ...base, grouping: 0 });
    const daily = await owner.energyFlows.flows(INVERTER, { ...base, grouping: 1 });
    expect(halfHourly).toHaveLength(48);
    expect(daily).toHaveLength(1);
    for (const type of ["0", "1", "2", "3", "4", "5", "6"]) {
      const sum = halfHourly.reduce((total, record) => total + (record.data[type] ?? 0), 0);
      expect(Math.abs(sum - (daily[0]?.data[type] ?? 0)), `type ${type}`).toBeLessThanOrEqual(0.01 * 48);
    }
    const onlyPv = await owner.energyFlows.flows(INVERTER, { ...base, grouping: 1, types: [0, 2] });
    expect(Object.keys(onlyPv[0]?.data ?? {}).sort()).toEqual(["0", "2"]);
  });

  it("fault events, cleared and not", async () => {
    const all = await owner.inverterData.events(INVERTER, { cleared: true }).all();
    expect(all.length).toBeGreaterThan(0);
    expect(all.every((e) => typeof e.event === "string" && e.start_time.length > 0)).toBe(true);
    const open = await owner.inverterData.events(INVERTER).all();
    expect(open.every((e) => e.end_time === null || e.end_time === undefined)).toBe(true);
  });

  it("settings and presets listings", async () => {
    const settings = await owner.inverterControl.settings(INVERTER);
    expect(settings).toHaveLength(79);
    expect(settings.find((s) => s.id === 71)?.validation_rules).toEqual(["between:4,100"]);
    const presets = await owner.inverterControl.presets(INVERTER);
    expect(presets.map((p) => p.identifier)).toEqual(
      expect.arrayContaining(["eco-mode", "timed-charge", "timed-export", "pause-battery", "reset-to-defaults"]),
    );
    expect(presets).toHaveLength(13);
    expect(await owner.inverterControl.presetValues(INVERTER, "eco-mode")).toEqual({ enabled: true });
  });

  it("sites and smart devices", async () => {
    const sites = await owner.sites.list().all();
    expect(sites.map((s) => s.id)).toEqual([61435]);
    expect((await owner.sites.get(61435)).tz_timezone).toBe("Europe/London");
    expect((await owner.smartDevices.list().all()).map((d) => d.uuid)).toEqual([SMART]);
    expect((await owner.smartDevices.get(SMART)).alias).toBe("Dishwasher");
    const data = await owner.smartDevices.data(SMART).all();
    expect(data.length).toBeGreaterThan(100);
    const [added] = await owner.smartDevices.addData(SMART, { time: "2025-06-15T10:30:00Z", power: 1234 });
    expect(added?.power).toBe(1234);
    const after = await owner.smartDevices.data(SMART).all();
    expect(after.some((p) => p.power === 1234)).toBe(true);
    const [created] = await owner.smartDevices.create({ serial_number: "PLUG-0042", alias: "Heat pump plug" });
    expect(created?.alias).toBe("Heat pump plug");
    expect((await owner.smartDevices.list().all()).length).toBe(2);
  });

  it("EV charger: listing, detail, commands, meter data and sessions", async () => {
    const chargers = await owner.evChargers.list().all();
    expect(chargers.map((c) => c.uuid)).toEqual([CHARGER]);
    expect((await owner.evChargers.get(CHARGER)).serial_number).toBe("EVC2024A001");
    const commands = await owner.evChargers.commands(CHARGER);
    expect(commands).toContain("start-charge");
    const mode = await owner.evChargers.commandData(CHARGER, "change-mode");
    expect(mode.available).toEqual(expect.arrayContaining(["Boost", "Eco", "SuperEco"]));
    const meter = await owner.evChargers
      .meterData(CHARGER, {
        start_time: "2025-06-14 00:00:00",
        end_time: "2025-06-15 00:00:00",
        measurands: [4, 13],
        meter_ids: [0],
      })
      .all();
    expect(meter.length).toBe(288);
    expect(meter[0]?.measurements.map((m) => m.measurand).sort((a, b) => a - b)).toEqual([4, 13]);
    const sessions = await owner.evChargers
      .chargingSessions(CHARGER, { start_time: "2025-06-01", end_time: "2025-06-15" })
      .all();
    expect(sessions.length).toBeGreaterThan(3);
    expect(sessions.every((s) => s.stopped_at === null || (s.meter_stop ?? 0) >= s.meter_start)).toBe(true);
  });
});
