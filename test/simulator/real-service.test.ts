import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normalised } from "../../src/cloud/meter-units.js";
import { startTestSimulator } from "../helpers/simulator.js";
import { EVIDENCE_DIR } from "./real-shape/evidence.js";

/*
 * What the real service does that the reference does not say (real-responses README), over
 * HTTP against the demo: serials in any case, the EMS served as an inverter, reads and writes
 * in the real shapes, values written as text, charger command data and meter units.
 */

const START = Date.UTC(2025, 5, 15, 11, 0, 0);
const INVERTER = "SD2024G001";
const DONGLE = "WF2024D001";
const EMS = "EM2024E001";
const CHILDREN = ["SE2024G101", "SE2024G102"];
const CHARGER = "6b1f0c8e-2f51-4c1b-9d3a-5e7c2a9b0d11";
const SMART = "9d7e4c2a-1b3f-4e5d-8a6c-0f1e2d3c4b5a";

type Json = Record<string, unknown>;

function inverterOf(device: Json | undefined): Json {
  if (!device) throw new Error("device not listed");
  return device.inverter as Json;
}

/** A section of a data point's power, e.g. `solar`. */
function sectionOf(point: Json | undefined, section: string): Json {
  if (!point) throw new Error("no data point at that time");
  return (point.power as Json)[section] as Json;
}

describe("the simulator answers as the real service does", () => {
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  beforeAll(async () => {
    sim = await startTestSimulator({ speed: 0, start: START });
  });
  afterAll(async () => {
    await sim.stop();
  });

  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
    const response = await fetch(`${sim.simulator.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${sim.simulator.tokens.owner}`,
        accept: "application/json",
        "content-type": "application/json",
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Json };
  }
  const get = (path: string) => call("GET", path);
  const post = (path: string, body: unknown = {}) => call("POST", path, body);
  const data = async (path: string): Promise<Json> => {
    const answer = await get(path);
    expect(answer.status, path).toBe(200);
    return answer.body.data as Json;
  };
  const list = async (path: string): Promise<Json[]> => (await data(path)) as unknown as Json[];
  const write = async (serial: string, id: number, value: unknown) =>
    (await post(`/inverter/${serial}/settings/${id}/write`, { value, context: "test" })).body.data;
  const read = async (serial: string, id: number) => (await post(`/inverter/${serial}/settings/${id}/read`)).body.data;

  describe("serials match without regard to case", () => {
    it("on the inverter, EMS, device, charger and smart device paths", async () => {
      const lower = INVERTER.toLowerCase();
      expect(await data(`/inverter/${lower}/system-data/latest`)).toEqual(
        await data(`/inverter/${INVERTER}/system-data/latest`),
      );
      expect(await data(`/inverter/${lower}/meter-data/latest`)).toEqual(
        await data(`/inverter/${INVERTER}/meter-data/latest`),
      );
      expect((await list(`/inverter/${lower}/data-points/2025-06-10?pageSize=300`)).length).toBe(288);
      expect((await list(`/inverter/${lower}/settings`)).length).toBe(79);
      expect((await data(`/communication-device/${DONGLE.toLowerCase()}`)).serial_number).toBe(DONGLE);
      expect(((await data(`/ems/${EMS.toLowerCase()}/system-data/latest`)).inverters as Json[]).length).toBe(2);
      expect((await data(`/ev-charger/${CHARGER.toUpperCase()}`)).uuid).toBe(CHARGER);
      expect(await list(`/ev-charger/${CHARGER.toUpperCase()}/commands`)).toContain("start-charge");
      expect(await list(`/smart-device/${SMART.toUpperCase()}`)).toEqual([expect.objectContaining({ uuid: SMART })]);
      expect((await get("/inverter/SD2024G999/settings")).status).toBe(404);
    });

    it("in reads, writes and multi-control, which answer for the serial as sent", async () => {
      expect(await write("sd2024g001", 71, 12)).toMatchObject({ value: 12, success: true });
      expect(await read("Sd2024G001", 71)).toEqual({ value: 12 });
      const multi = await post("/multi-control/read", {
        inverter_serials: ["sd2024g001", "XX0000X000"],
        setting_id: 71,
      });
      expect(multi.body.data).toEqual({ sd2024g001: 12, XX0000X000: -3 });
      const written = await post("/multi-control/write", {
        inverter_serials: ["sd2024g001"],
        setting_id: 71,
        value: "15",
      });
      expect(written.body.data).toEqual({ sd2024g001: 15 });
    });

    it("in snapshots, preset profiles and the admin switches, which belong to the device whatever the case", async () => {
      expect((await post("/inverter/sd2024g001/snapshot/case-test", { sync: true })).status).toBe(200);
      expect(await data(`/inverter/${INVERTER}/snapshot/case-test`)).toEqual({ exists: true });
      const created = await post("/inverter/sd2024g001/preset-profile", { name: "case-test", preset: "eco-mode" });
      expect(created.status).toBe(201);
      expect(created.body.inverter_id).toBe(INVERTER);
      expect((await list(`/inverter/${INVERTER}/preset-profile?name=case-test`)).length).toBe(1);

      await sim.admin("/devices/sd2024g001", { locked: true });
      expect(await write(INVERTER, 71, 20)).toMatchObject({ value: -7, success: false });
      await sim.admin("/devices/SD2024G001", { locked: false });
      expect(await write(INVERTER, 71, 20)).toMatchObject({ value: 20, success: true });
    });
  });

  describe("the EMS", () => {
    it("is listed as an inverter whose model is Plant EMS, its children without is-controllable", async () => {
      const devices = await list("/communication-device");
      const ems = devices.find((d) => (d.inverter as Json).serial === EMS);
      expect(ems).toMatchObject({
        serial_number: EMS,
        inverter: {
          serial: EMS,
          info: { model: "Plant EMS" },
          connections: { batteries: [], meters: [] },
          flags: ["is-controllable"],
        },
      });
      for (const serial of CHILDREN) {
        const child = devices.find((d) => (d.inverter as Json).serial === serial);
        expect(inverterOf(child).flags, serial).not.toContain("is-controllable");
      }
    });

    it("is served by the inverter endpoints, its live data and counters the sums of its children's", async () => {
      const plant = await data(`/inverter/${EMS}/system-data/latest`);
      const children = await Promise.all(CHILDREN.map((serial) => data(`/inverter/${serial}/system-data/latest`)));
      const sum = (pick: (body: Json) => unknown) => children.reduce((total, body) => total + Number(pick(body)), 0);
      const part = (body: Json, section: string, key: string) => (body[section] as Json)[key];
      expect(part(plant, "solar", "power")).toBe(sum((b) => part(b, "solar", "power")));
      expect(part(plant, "grid", "power")).toBe(sum((b) => part(b, "grid", "power")));
      expect(part(plant, "battery", "power")).toBe(sum((b) => part(b, "battery", "power")));
      expect(plant.consumption).toBe(sum((b) => b.consumption));
      expect(part(plant, "battery", "temperature")).toBeNull();
      const percents = children.map((b) => Number(part(b, "battery", "percent")));
      expect(Number(part(plant, "battery", "percent"))).toBeGreaterThanOrEqual(Math.min(...percents));
      expect(Number(part(plant, "battery", "percent"))).toBeLessThanOrEqual(Math.max(...percents));

      const counters = await data(`/inverter/${EMS}/meter-data/latest`);
      const childCounters = await Promise.all(CHILDREN.map((serial) => data(`/inverter/${serial}/meter-data/latest`)));
      for (const period of ["today", "total"]) {
        for (const key of ["solar", "consumption"]) {
          const expected = childCounters.reduce((total, body) => total + Number((body[period] as Json)[key]), 0);
          expect(Number((counters[period] as Json)[key]), `${period}.${key}`).toBeCloseTo(expected, 1);
        }
      }
    });

    it("has data points that add up its children's, instant by instant", async () => {
      const date = "2025-06-10";
      const points = await list(`/inverter/${EMS}/data-points/${date}?pageSize=300`);
      const children = await Promise.all(CHILDREN.map((s) => list(`/inverter/${s}/data-points/${date}?pageSize=300`)));
      expect(points.length).toBe(288);
      for (const point of points.filter((_, index) => index % 37 === 0)) {
        const same = children.map((points) => points.find((p) => p.time === point.time));
        const power = (p: Json | undefined, section: string) => Number(sectionOf(p, section).power);
        expect(power(point, "solar")).toBe(same.reduce((t, p) => t + power(p, "solar"), 0));
        expect(power(point, "consumption")).toBe(same.reduce((t, p) => t + power(p, "consumption"), 0));
      }
    });

    it("has energy flows that are its children's added up, and no fault events of its own", async () => {
      const flows = async (serial: string) =>
        (
          await post(`/inverter/${serial}/energy-flows`, {
            start_time: "2025-06-01 00:00:00",
            end_time: "2025-06-08 00:00:00",
            grouping: 1,
          })
        ).body.data as { start_time: string; data: Record<string, number> }[];
      const plant = await flows(EMS);
      const children = await Promise.all(CHILDREN.map(flows));
      expect(plant.length).toBe(7);
      for (const [index, record] of plant.entries()) {
        for (const type of ["0", "1", "3", "5"]) {
          const expected = children.reduce((total, child) => total + (child[index]?.data[type] ?? 0), 0);
          expect(record.data[type], `${record.start_time} type ${type}`).toBeCloseTo(expected, 2);
        }
      }
      expect(await list(`/inverter/${EMS}/events?cleared=1`)).toEqual([]);
    });

    it("is controlled through the inverter endpoints: settings, reads, writes and presets", async () => {
      expect((await list(`/inverter/${EMS}/settings`)).length).toBe(79);
      expect(await read(EMS, 24)).toEqual({ value: true });
      expect(await write(EMS, 24, "false")).toEqual({ value: false, success: true, message: "Written Successfully" });
      expect(await read(EMS.toLowerCase(), 24)).toEqual({ value: false });
      const presets = await list(`/inverter/${EMS}/presets`);
      expect(presets.map((p) => p.identifier)).toContain("plant-ems-enable-control");
      const applied = await post(`/inverter/${EMS}/presets/plant-ems-enable-control`, { enabled: true });
      expect(applied).toEqual({ status: 201, body: { success: true, message: expect.any(String) } });
      expect(await data(`/inverter/${EMS}/presets/plant-ems-enable-control`)).toEqual({ enabled: true });
    });
  });

  describe("setting reads and writes", () => {
    it("a read answers {value} only, a refused one keeps its code, success and message", async () => {
      expect((await post(`/inverter/${INVERTER}/settings/64/read`)).body).toEqual({ data: { value: "00:00" } });
      await sim.admin(`/devices/${INVERTER}`, { offline: true });
      expect(await read(INVERTER, 64)).toEqual({ value: -2, success: false, message: "Inverter Offline" });
      await sim.admin(`/devices/${INVERTER}`, { offline: false });
    });

    it("a write takes values sent as text, as public clients send them", async () => {
      expect(await write(INVERTER, 24, "False")).toEqual({
        value: false,
        success: true,
        message: "Written Successfully",
      });
      expect(await read(INVERTER, 24)).toEqual({ value: false });
      expect(await write(INVERTER, 24, "True")).toMatchObject({ value: true, success: true });
      expect(await write(INVERTER, 24, "false")).toMatchObject({ value: false, success: true });
      expect(await write(INVERTER, 24, "1")).toMatchObject({ value: true, success: true });
      expect(await write(INVERTER, 71, "4")).toEqual({ value: 4, success: true, message: "Written Successfully" });
      expect(await read(INVERTER, 71)).toEqual({ value: 4 });
      expect(await write(INVERTER, 64, "16:00")).toMatchObject({ value: "16:00", success: true });
      expect(await write(INVERTER, 96, "2")).toMatchObject({ value: 2, success: true });
    });

    it("still refuses with -4 what the setting's rules forbid, leaving the value as it was", async () => {
      expect(await write(INVERTER, 71, 30)).toMatchObject({ success: true });
      expect(await write(INVERTER, 24, "yes")).toMatchObject({ value: -4, success: false });
      expect(await write(INVERTER, 71, "3")).toMatchObject({ value: -4, success: false });
      expect(await write(INVERTER, 71, "four")).toMatchObject({ value: -4, success: false });
      expect(await write(INVERTER, 64, "25:00")).toMatchObject({ value: -4, success: false });
      expect(await write(INVERTER, 96, "True")).toMatchObject({ value: -4, success: false });
      expect(await read(INVERTER, 71)).toEqual({ value: 30 });
    });
  });

  describe("the EV charger", () => {
    it("lists the commands a real charger lists", async () => {
      const evidence = JSON.parse(readFileSync(new URL("predbat_comment_evc_commands.json", EVIDENCE_DIR), "utf8")) as {
        response: { data: string[] };
      };
      expect(await list(`/ev-charger/${CHARGER}/commands`)).toEqual(evidence.response.data);
      const refused = await post(`/ev-charger/${CHARGER}/commands/adjust-cp-voltage-range`, { min: 7.7, max: 10.4 });
      expect(refused.body.data).toMatchObject({ code: -5, success: false, error: { code: "NotSupported" } });
    });

    it("answers command data in the real shapes", async () => {
      const command = (id: string) => data(`/ev-charger/${CHARGER}/commands/${id}`);
      expect(await command("set-plug-and-go")).toEqual({ value: false, disabled: false, message: null });
      expect(
        (await post(`/ev-charger/${CHARGER}/commands/set-plug-and-go`, { enabled: true })).body.data,
      ).toMatchObject({
        code: 0,
      });
      expect(await command("set-plug-and-go")).toEqual({ value: true, disabled: false, message: null });
      expect(await command("adjust-charge-power-limit")).toEqual({ min: 6, max: 32, value: 32, unit: "A" });
      expect(await command("set-session-energy-limit")).toEqual({ min: 0.1, max: 250, value: null, unit: "kWh" });
      expect(await command("set-schedule")).toEqual({ schedules: [] });
      expect(await command("unlock-connector")).toEqual([]);
    });

    it("labels meter records with their units: the register in Wh, powers in kW, consistent with each other", async () => {
      const query =
        "start_time=2025-06-08&end_time=2025-06-15&measurands[]=4&measurands[]=13&meter_ids[]=0&pageSize=5000";
      const records = await list(`/ev-charger/${CHARGER}/meter-data?${query}`);
      const value = (record: Json, measurand: number) =>
        (record.measurements as Json[]).find((m) => m.measurand === measurand) as { value: number; unit: number };
      expect(records.length).toBe(7 * 288);
      for (const record of records) {
        expect(value(record, 4).unit).toBe(0);
        expect(value(record, 13).unit).toBe(5);
      }
      // Five minutes at P kW put P * 1000 / 12 Wh on the register.
      const delivered = records.slice(0, -1).reduce((wh, record) => wh + (value(record, 13).value * 1000) / 12, 0);
      const registered = value(records.at(-1) ?? {}, 4).value - value(records[0] ?? {}, 4).value;
      expect(registered).toBeGreaterThan(1000);
      expect(Math.abs(delivered - registered)).toBeLessThan(0.1 * registered);
    });

    it("reads, through the client and the daemon's unit conversion, as kWh and as W that current times voltage gives", async () => {
      const records = await sim
        .clientFor("owner")
        .evChargers.meterData(CHARGER, {
          start_time: "2025-06-08",
          end_time: "2025-06-15",
          measurands: [1, 4, 13, 21],
          meter_ids: [0],
        })
        .all();
      const charging = records.filter((record) => record.measurements.some((m) => m.measurand === 13 && m.value > 0));
      expect(charging.length).toBeGreaterThan(10);
      for (const record of charging) {
        const by = (measurand: number) => {
          const found = record.measurements.find((m) => m.measurand === measurand);
          if (!found) throw new Error(`no measurand ${measurand}`);
          return found;
        };
        const power = normalised(by(13));
        expect(power.unit).toBe("W");
        // Single phase: W = A x V, to the rounding of the current (0.01 A).
        expect(Math.abs(power.value - by(1).value * by(21).value)).toBeLessThan(0.01 * by(21).value + 1);
        const energy = normalised(by(4));
        expect(energy.unit).toBe("kWh");
        expect(energy.value).toBeCloseTo(by(4).value / 1000, 6);
      }
    });
  });
});
