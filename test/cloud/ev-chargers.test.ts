import { afterEach, describe, expect, it } from "vitest";
import { InvalidRequestError, ServerError } from "../../src/cloud/errors.js";
import type { EvCommandResult } from "../../src/cloud/results.js";
import {
  isSessionOpen,
  MEASURANDS,
  METER_UNITS,
  measurandName,
  meterUnitName,
} from "../../src/cloud/schemas/ev-charger.js";
import {
  EV_COMMAND_IDS,
  EV_COMMANDS,
  type EvCommandData,
  type EvCommandId,
  type EvCommandRequest,
} from "../../src/cloud/schemas/ev-commands.js";
import { evChargerEndpoints } from "../../src/cloud/sections/ev-chargers.js";
import { MOCK_TOKEN, mockCloud, pageOf } from "../helpers/mock-cloud.js";

const UUID = "9c6f3c1e-6b2a-4f3e-9a51-2b7d1c0e8f44";
const SCHEDULE_ID = "3f2b8c4d-1a7e-4c55-b0d2-6e9f13a4c7b1";
const TAG = "04A1B2C3D4E5F6";

const CHARGER = {
  uuid: UUID,
  serial_number: "GEEVC2301234",
  type: "GivEnergy EV Charger (Type 2 Socket)",
  alias: "Driveway",
  online: true,
  went_offline_at: null,
  status: "Charging",
  some_future_field: 1,
};

const OFFLINE_CHARGER = {
  ...CHARGER,
  uuid: "0b7d4e2a-58c1-4f6b-9f0e-7a3c2d1e5b88",
  serial_number: "GEEVC2305678",
  alias: "Garage",
  online: false,
  went_offline_at: "2025-06-14T21:07:33Z",
  status: "SuspendedEVSE",
};

const base = `/ev-charger/${UUID}`;

describe("EV chargers section: reads", () => {
  let cloud = mockCloud();
  afterEach(async () => {
    await cloud.close();
    cloud = mockCloud();
  });

  it("defines the seven endpoints with the reference's scopes; only Send Command is a write", () => {
    expect(Object.values(evChargerEndpoints)).toHaveLength(7);
    expect(evChargerEndpoints.list.scopes).toEqual([]);
    expect(evChargerEndpoints.get.scopes).toEqual([]);
    expect(evChargerEndpoints.meterData.scopes).toEqual(["api:ev-charger:data"]);
    expect(evChargerEndpoints.chargingSessions.scopes).toEqual(["api:ev-charger:data"]);
    expect(evChargerEndpoints.commands.scopes).toEqual(["api:ev-charger:control"]);
    expect(evChargerEndpoints.commandData.scopes).toEqual(["api:ev-charger:control"]);
    expect(evChargerEndpoints.sendCommand).toMatchObject({
      method: "POST",
      path: "/ev-charger/{charger_uuid}/commands/{command_id}",
      scopes: ["api:ev-charger:control"],
      idempotent: false,
    });
    const writes = Object.values(evChargerEndpoints).filter((e) => !e.idempotent);
    expect(writes).toEqual([evChargerEndpoints.sendCommand]);
  });

  it("GET /ev-charger pages through the chargers with headers and pagination", async () => {
    cloud.reply("GET", "/ev-charger", { body: pageOf([CHARGER, OFFLINE_CHARGER], 1, 2) });
    cloud.reply("GET", "/ev-charger", { body: pageOf([{ ...CHARGER, uuid: "u3", status: "SomethingNew" }], 2, 2) });
    const chargers = await cloud.client.evChargers.list({ pageSize: 2 }).all();
    expect(cloud.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /v1/ev-charger?page=1&pageSize=2",
      "GET /v1/ev-charger?page=2&pageSize=2",
    ]);
    const first = cloud.requests[0];
    expect(first?.headers.authorization).toBe(`Bearer ${MOCK_TOKEN}`);
    expect(first?.headers.accept).toBe("application/json");
    expect(first?.body).toBeUndefined();
    expect(chargers.map((c) => c.uuid)).toEqual([UUID, OFFLINE_CHARGER.uuid, "u3"]);
    expect(chargers[0]).toEqual({
      uuid: UUID,
      serial_number: "GEEVC2301234",
      type: "GivEnergy EV Charger (Type 2 Socket)",
      alias: "Driveway",
      online: true,
      went_offline_at: null,
      status: "Charging",
    });
    expect(chargers[1]?.went_offline_at).toBe("2025-06-14T21:07:33Z");
    expect(chargers[1]?.online).toBe(false);
    // the status set is open
    expect(chargers[2]?.status).toBe("SomethingNew");
  });

  it("GET /ev-charger/{uuid} encodes the uuid as one path segment and unwraps data", async () => {
    cloud.reply("GET", base, { body: { data: OFFLINE_CHARGER } });
    const charger = await cloud.client.evChargers.get(UUID);
    expect(cloud.only().path).toBe(`/v1/ev-charger/${UUID}`);
    expect(charger.status).toBe("SuspendedEVSE");

    cloud.reply("GET", "/ev-charger/a%2Fb", { body: { data: CHARGER } });
    await cloud.client.evChargers.get("a/b");
    expect(cloud.requests[1]?.path).toBe("/v1/ev-charger/a%2Fb");
  });

  it("names the field when a charger does not fit", async () => {
    cloud.reply("GET", base, { body: { data: { ...CHARGER, serial_number: null } } });
    await expect(cloud.client.evChargers.get(UUID)).rejects.toMatchObject({
      name: "ResponseShapeError",
      field: "data.serial_number",
      message: expect.stringContaining("Get EV Charger (GET /ev-charger/{charger_uuid})"),
    });
  });

  it("retries a GET that gets a 503 and then succeeds", async () => {
    cloud.reply("GET", base, { status: 503, body: { message: "Down for maintenance" } });
    cloud.reply("GET", base, { body: { data: CHARGER } });
    const charger = await cloud.client.evChargers.get(UUID);
    expect(cloud.requests).toHaveLength(2);
    expect(charger.uuid).toBe(UUID);
  });

  it("GET meter-data encodes the arrays as name[]=value and parses both timestamp forms", async () => {
    const records = [
      {
        meter_id: 0,
        timestamp: "2025-06-14T12:00:00Z",
        measurements: [
          { measurand: 4, value: 15234.7, unit: 0 },
          { measurand: 13, value: 7180, unit: 4 },
          { measurand: 19, value: 64, unit: null },
        ],
      },
      {
        meter_id: 0,
        // older responses: local datetime
        timestamp: "2025-06-14 13:05:00",
        measurements: [
          { measurand: 4, value: "15236.1", unit: 0 },
          { measurand: 13, value: 7205.5, unit: 4 },
        ],
      },
    ];
    cloud.reply("GET", `${base}/meter-data`, { body: pageOf(records, 1, 1) });
    const got = await cloud.client.evChargers
      .meterData(UUID, {
        start_time: "2025-06-14T12:00:00Z",
        end_time: "2025-06-14 14:00:00",
        measurands: [4, 13],
        meter_ids: [0],
      })
      .all();
    expect(cloud.only().path).toBe(
      `/v1/ev-charger/${UUID}/meter-data?start_time=2025-06-14T12%3A00%3A00Z&end_time=2025-06-14%2014%3A00%3A00&measurands[]=4&measurands[]=13&meter_ids[]=0&page=1&pageSize=100`,
    );
    expect(got).toHaveLength(2);
    expect(got[0]?.measurements).toEqual([
      { measurand: 4, value: 15234.7, unit: 0 },
      { measurand: 13, value: 7180, unit: 4 },
      { measurand: 19, value: 64, unit: null },
    ]);
    expect(got[1]?.timestamp).toBe("2025-06-14 13:05:00");
    // numeric strings become numbers
    expect(got[1]?.measurements[0]?.value).toBe(15236.1);
    const named = got[0]?.measurements.map((m) => `${measurandName(m.measurand)} ${meterUnitName(m.unit) ?? "-"}`);
    expect(named).toEqual(["Energy.Active.Import.Register Wh", "Power.Active.Import W", "SoC -"]);
  });

  it("refuses a meter-data query without measurands or meter IDs, or with a bad time, before sending", () => {
    const api = cloud.client.evChargers;
    const good = { start_time: "2025-06-14", end_time: "2025-06-15", measurands: [4] as const, meter_ids: [0] };
    expect(() => api.meterData(UUID, { ...good, measurands: [] })).toThrow(InvalidRequestError);
    expect(() => api.meterData(UUID, { ...good, meter_ids: [] })).toThrow(InvalidRequestError);
    expect(() => api.meterData(UUID, { ...good, start_time: "yesterday" })).toThrow(InvalidRequestError);
    expect(cloud.requests).toHaveLength(0);
  });

  it("the measurand and unit tables match the reference", () => {
    expect(Object.keys(MEASURANDS)).toHaveLength(22);
    expect(MEASURANDS[0]).toBe("Current.Export");
    expect(MEASURANDS[8]).toBe("Energy.Active.Import.Interval");
    expect(MEASURANDS[21]).toBe("Voltage");
    expect(Object.keys(METER_UNITS)).toHaveLength(16);
    expect(METER_UNITS[1]).toBe("kWh");
    expect(METER_UNITS[12]).toBe("Celsius");
    expect(METER_UNITS[15]).toBe("Percent");
    expect(measurandName(22)).toBeUndefined();
    expect(meterUnitName(16)).toBeUndefined();
  });

  it("GET charging-sessions sends the optional times and parses open and stopped sessions", async () => {
    const sessions = [
      {
        started_by: "PLUG_AND_GO",
        meter_start: 15120.4,
        started_at: "2025-06-13T17:42:10Z",
        stopped_by: "PLUG_AND_GO",
        meter_stop: 15149.9,
        stopped_at: "2025-06-13T22:03:51Z",
        stop_reason: "EVDisconnected",
      },
      {
        started_by: 61234,
        meter_start: "15230.2",
        started_at: "2025-06-14T11:58:00Z",
        stopped_by: null,
        meter_stop: null,
        stopped_at: null,
        stop_reason: null,
      },
    ];
    cloud.reply("GET", `${base}/charging-sessions`, { body: pageOf(sessions, 1, 1) });
    const got = await cloud.client.evChargers
      .chargingSessions(UUID, { start_time: "2025-06-13", end_time: "2025-06-14" }, { pageSize: 50 })
      .all();
    expect(cloud.only().path).toBe(
      `/v1/ev-charger/${UUID}/charging-sessions?start_time=2025-06-13&end_time=2025-06-14&page=1&pageSize=50`,
    );
    expect(got[0]).toMatchObject({ stop_reason: "EVDisconnected", meter_stop: 15149.9 });
    expect(isSessionOpen(got[0] ?? { stopped_at: "x" })).toBe(false);
    expect(got[1]).toEqual({
      started_by: "61234",
      meter_start: 15230.2,
      started_at: "2025-06-14T11:58:00Z",
      stopped_by: null,
      meter_stop: null,
      stopped_at: null,
      stop_reason: null,
    });
    expect(isSessionOpen(got[1] ?? { stopped_at: "x" })).toBe(true);
  });

  it("GET charging-sessions without times sends only the page parameters", async () => {
    cloud.reply("GET", `${base}/charging-sessions`, { body: pageOf([], 1, 1) });
    const got = await cloud.client.evChargers.chargingSessions(UUID).all();
    expect(cloud.only().path).toBe(`/v1/ev-charger/${UUID}/charging-sessions?page=1&pageSize=100`);
    expect(got).toEqual([]);
  });

  it("GET commands lists the supported command IDs; knownCommands keeps the ones the client knows", async () => {
    const supported = ["start-charge", "stop-charge", "change-mode", "some-new-command"];
    cloud.reply("GET", `${base}/commands`, { body: { data: supported } }, 2);
    expect(await cloud.client.evChargers.commands(UUID)).toEqual(supported);
    expect(await cloud.client.evChargers.knownCommands(UUID)).toEqual(["start-charge", "stop-charge", "change-mode"]);
    expect(cloud.requests[0]?.path).toBe(`/v1/ev-charger/${UUID}/commands`);
    expect(cloud.requests[0]?.method).toBe("GET");
  });
});

interface CommandCase<C extends EvCommandId> {
  readonly request: EvCommandRequest<C>;
  /** The JSON body expected on the wire. */
  readonly body: unknown;
  /** A realistic Get Command Data answer (the value of `data`). */
  readonly answer: unknown;
  readonly parsed: EvCommandData<C>;
}

const SCHEDULE = {
  id: SCHEDULE_ID,
  name: "Cheap night rate",
  is_active: false,
  periods: [{ days: [0, 1, 2, 3, 4], start_time: "00:30", end_time: "04:30", limit: 32 }],
};

/** One case per command: the mapped type makes leaving one out a compile error. */
const CASES: { readonly [C in EvCommandId]: CommandCase<C> } = {
  "start-charge": { request: {}, body: {}, answer: [], parsed: [] },
  "stop-charge": { request: {}, body: {}, answer: [], parsed: [] },
  "adjust-charge-power-limit": {
    request: { limit: 16 },
    body: { limit: 16 },
    answer: { min: 6, max: 32, value: 16, unit: "A" },
    parsed: { min: 6, max: 32, value: 16, unit: "A" },
  },
  "set-plug-and-go": {
    request: { enabled: true },
    body: { enabled: true },
    answer: { value: true, disabled: false, message: null },
    parsed: { value: true, disabled: false, message: null },
  },
  "set-session-energy-limit": {
    request: { limit: 12.5 },
    body: { limit: 12.5 },
    answer: { min: 0.1, max: 250, value: null, unit: "kWh" },
    parsed: { min: 0.1, max: 250, value: null, unit: "kWh" },
  },
  "set-schedule": {
    request: {
      name: "Cheap night rate",
      periods: [{ start_time: "00:30", end_time: "04:30", limit: 32, days: [0, 1, 2, 3, 4] }],
    },
    body: {
      name: "Cheap night rate",
      periods: [{ start_time: "00:30", end_time: "04:30", limit: 32, days: [0, 1, 2, 3, 4] }],
    },
    answer: { schedules: [{ ...SCHEDULE, periods: [{ ...SCHEDULE.periods[0], start_time: "00:30:00" }] }] },
    parsed: {
      schedules: [
        { ...SCHEDULE, periods: [{ days: [0, 1, 2, 3, 4], start_time: "00:30:00", end_time: "04:30", limit: 32 }] },
      ],
    },
  },
  "unlock-connector": { request: {}, body: {}, answer: [], parsed: [] },
  "delete-charging-profile": {
    request: { schedule_id: SCHEDULE_ID },
    body: { schedule_id: SCHEDULE_ID },
    answer: [],
    parsed: [],
  },
  "change-mode": {
    request: { mode: "Eco" },
    body: { mode: "Eco" },
    answer: { active: "SuperEco", available: ["SuperEco", "Eco", "EcoPlus", "Boost"] },
    parsed: { active: "SuperEco", available: ["SuperEco", "Eco", "EcoPlus", "Boost"] },
  },
  "restart-charger": { request: { hard_reset: false }, body: { hard_reset: false }, answer: [], parsed: [] },
  "change-randomised-delay-duration": {
    request: { duration: 900 },
    body: { duration: 900 },
    answer: null,
    parsed: null,
  },
  "add-id-tags": {
    request: { id_tags: [{ id: TAG, alias: "Blue fob", expiry_date: "2026-12-31" }, { id: "12345678" }] },
    body: { id_tags: [{ id: TAG, alias: "Blue fob", expiry_date: "2026-12-31" }, { id: "12345678" }] },
    answer: {
      id_tags: [
        { id: TAG, alias: "Blue fob", expiry_date: "2026-12-31T00:00:00Z", created_at: "2025-06-14T09:12:45Z" },
        { id: "12345678", alias: null, expiry_date: null, created_at: "2025-06-14T09:12:45Z" },
      ],
      maximum_id_tags: 10,
    },
    parsed: {
      id_tags: [
        { id: TAG, alias: "Blue fob", expiry_date: "2026-12-31T00:00:00Z", created_at: "2025-06-14T09:12:45Z" },
        { id: "12345678", alias: null, expiry_date: null, created_at: "2025-06-14T09:12:45Z" },
      ],
      maximum_id_tags: 10,
    },
  },
  "delete-id-tags": { request: { id_tags: [TAG] }, body: { id_tags: [TAG] }, answer: null, parsed: null },
  "rename-id-tag": {
    request: { tag_id: TAG, alias: "Red fob" },
    body: { tag_id: TAG, alias: "Red fob" },
    answer: null,
    parsed: null,
  },
  "installation-mode": {
    request: { installation_mode: "hybrid_inverter_control" },
    body: { installation_mode: "hybrid_inverter_control" },
    answer: "ct_meter",
    parsed: "ct_meter",
  },
  "setup-version": { request: { setup_version: 2 }, body: { setup_version: 2 }, answer: 2, parsed: 2 },
  "set-active-schedule": {
    request: { schedule_id: SCHEDULE_ID },
    body: { schedule_id: SCHEDULE_ID },
    answer: { schedule_id: SCHEDULE_ID },
    parsed: { schedule_id: SCHEDULE_ID },
  },
  "set-max-import-capacity": {
    request: { value: 80 },
    body: { value: 80 },
    answer: { value: 80 },
    parsed: { value: 80 },
  },
  "enable-front-panel-led": {
    request: { value: true },
    body: { value: true },
    answer: { value: true },
    parsed: { value: true },
  },
  "configure-inverter-control": {
    request: { inverter_battery_export_split: "0.8", max_battery_discharge_power_to_evc: 1500, mode: "Eco" },
    body: { inverter_battery_export_split: "0.8", max_battery_discharge_power_to_evc: 1500, mode: "Eco" },
    answer: { inverter_battery_export_split: 0.5, max_battery_discharge_power_to_evc: 0, mode: "SuperEco" },
    parsed: { inverter_battery_export_split: 0.5, max_battery_discharge_power_to_evc: 0, mode: "SuperEco" },
  },
  "perform-factory-reset": { request: {}, body: {}, answer: [], parsed: [] },
  "configuration-mode": {
    request: { configuration_mode: "C" },
    body: { configuration_mode: "C" },
    answer: { value: "E" },
    parsed: { value: "E" },
  },
  "enable-local-control": {
    request: { value: false },
    body: { value: false },
    answer: { value: false },
    parsed: { value: false },
  },
  "read-cp-voltage-and-duty-cycle": { request: {}, body: {}, answer: [], parsed: [] },
  "adjust-cp-voltage-range": {
    request: { min: 7.6, max: 10.5 },
    body: { min: 7.6, max: 10.5 },
    answer: { min: 7.8, max: 10.2 },
    parsed: { min: 7.8, max: 10.2 },
  },
  "adjust-suspended-state-wait-timeout": {
    request: { value: 43200 },
    body: { value: 43200 },
    answer: { value: 3600 },
    parsed: { value: 3600 },
  },
};

const SUCCESS = { data: { code: 0, success: true, message: "Command sent" } };

describe("EV chargers section: commands", () => {
  let cloud = mockCloud();
  afterEach(async () => {
    await cloud.close();
    cloud = mockCloud();
  });

  it("knows exactly the reference's 26 command IDs, in its order", () => {
    expect(EV_COMMAND_IDS).toHaveLength(26);
    expect(EV_COMMAND_IDS.slice(0, 3)).toEqual(["start-charge", "stop-charge", "adjust-charge-power-limit"]);
    expect(EV_COMMAND_IDS.at(-1)).toBe("adjust-suspended-state-wait-timeout");
    expect([...EV_COMMAND_IDS].sort()).toEqual(Object.keys(CASES).sort());
    expect(Object.keys(EV_COMMANDS)).toEqual([...EV_COMMAND_IDS]);
  });

  it.each(EV_COMMAND_IDS)("POST %s sends the request fields as the JSON body", async (id) => {
    const path = `${base}/commands/${id}`;
    cloud.reply("POST", path, { body: SUCCESS });
    const result = await cloud.client.evChargers.sendCommand(UUID, id, CASES[id].request);
    const request = cloud.only();
    expect(request.method).toBe("POST");
    expect(request.path).toBe(`/v1${path}`);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers.authorization).toBe(`Bearer ${MOCK_TOKEN}`);
    expect(request.body).toEqual(CASES[id].body);
    expect(result).toEqual({ ok: true, code: 0, message: "Command sent" });
  });

  it.each(EV_COMMAND_IDS)("GET %s parses a realistic command-data answer", async (id) => {
    const path = `${base}/commands/${id}`;
    cloud.reply("GET", path, { body: { data: CASES[id].answer } });
    const parsed = await cloud.client.evChargers.commandData(UUID, id);
    const request = cloud.only();
    expect(request.method).toBe("GET");
    expect(request.path).toBe(`/v1${path}`);
    expect(request.body).toBeUndefined();
    expect(parsed).toEqual(CASES[id].parsed);
  });

  it("command data is typed per command", async () => {
    cloud.reply("GET", `${base}/commands/change-mode`, { body: { data: CASES["change-mode"].answer } });
    const modes = await cloud.client.evChargers.commandData(UUID, "change-mode");
    // compiles only because the data type is that of change-mode
    const available: string[] = modes.available;
    expect(available).toContain("Boost");
    expect(modes.active).toBe("SuperEco");
  });

  it("command data tolerates missing fields and numbers sent as strings or 0/1", async () => {
    cloud.reply("GET", `${base}/commands/adjust-charge-power-limit`, {
      body: { data: { min: "6", max: "32", value: "10" } },
    });
    cloud.reply("GET", `${base}/commands/set-plug-and-go`, { body: { data: 0 } });
    cloud.reply("GET", `${base}/commands/start-charge`, { body: { data: null } });
    cloud.reply("GET", `${base}/commands/delete-id-tags`, { body: { data: [] } });
    cloud.reply("GET", `${base}/commands/set-schedule`, {
      body: { data: { schedules: [{ id: 7, name: "Weekend", is_active: 1, periods: null }] } },
    });
    const api = cloud.client.evChargers;
    expect(await api.commandData(UUID, "adjust-charge-power-limit")).toEqual({ min: 6, max: 32, value: 10 });
    expect(await api.commandData(UUID, "set-plug-and-go")).toEqual({ value: false, disabled: false, message: null });
    expect(await api.commandData(UUID, "start-charge")).toEqual([]);
    expect(await api.commandData(UUID, "delete-id-tags")).toBeNull();
    expect(await api.commandData(UUID, "set-schedule")).toEqual({
      schedules: [{ id: "7", name: "Weekend", is_active: true, periods: [] }],
    });
  });

  it("a command-data answer of the wrong shape is a ResponseShapeError naming the field", async () => {
    cloud.reply("GET", `${base}/commands/change-mode`, { body: { data: { active: "Eco", available: "Eco,Boost" } } });
    await expect(cloud.client.evChargers.commandData(UUID, "change-mode")).rejects.toMatchObject({
      name: "ResponseShapeError",
      field: "data.available",
    });
  });

  it("optional fields may be left out of the body", async () => {
    cloud.reply("POST", `${base}/commands/set-active-schedule`, { body: SUCCESS });
    cloud.reply("POST", `${base}/commands/delete-charging-profile`, { body: SUCCESS });
    cloud.reply("POST", `${base}/commands/set-session-energy-limit`, { body: SUCCESS });
    cloud.reply("POST", `${base}/commands/restart-charger`, { body: SUCCESS });
    const api = cloud.client.evChargers;
    await api.sendCommand(UUID, "set-active-schedule", {});
    await api.sendCommand(UUID, "delete-charging-profile", {});
    await api.setSessionEnergyLimit(UUID, undefined);
    await api.sendCommand(UUID, "restart-charger", { hard_reset: true });
    expect(cloud.requests.map((r) => r.body)).toEqual([{}, {}, {}, { hard_reset: true }]);
  });

  it("the typed shortcuts send the right command and body", async () => {
    const api = cloud.client.evChargers;
    for (const id of ["start-charge", "stop-charge", "adjust-charge-power-limit", "set-plug-and-go", "change-mode"]) {
      cloud.reply("POST", `${base}/commands/${id}`, { body: SUCCESS });
    }
    await api.startCharge(UUID);
    await api.stopCharge(UUID);
    await api.setChargePowerLimit(UUID, 20);
    await api.setPlugAndGo(UUID, false);
    await api.changeMode(UUID, "Boost");
    expect(cloud.requests.map((r) => [r.path, r.body])).toEqual([
      [`/v1${base}/commands/start-charge`, {}],
      [`/v1${base}/commands/stop-charge`, {}],
      [`/v1${base}/commands/adjust-charge-power-limit`, { limit: 20 }],
      [`/v1${base}/commands/set-plug-and-go`, { enabled: false }],
      [`/v1${base}/commands/change-mode`, { mode: "Boost" }],
    ]);
  });
});

describe("EV chargers section: local validation", () => {
  let cloud = mockCloud();
  afterEach(async () => {
    await cloud.close();
    cloud = mockCloud();
  });

  const period = { start_time: "00:30", end_time: "04:30", limit: 32, days: [0] };

  /** Each bad request, the field the error must name. */
  const BAD: { [C in EvCommandId]?: readonly (readonly [EvCommandRequest<C>, string])[] } = {
    "adjust-charge-power-limit": [
      [{ limit: 5 }, "limit"],
      [{ limit: 33 }, "limit"],
    ],
    "set-session-energy-limit": [
      [{ limit: 0 }, "limit"],
      [{ limit: 251 }, "limit"],
    ],
    "change-randomised-delay-duration": [
      [{ duration: 599 }, "duration"],
      [{ duration: 1801 }, "duration"],
    ],
    "set-schedule": [
      [{ name: "x".repeat(31), periods: [period] }, "name"],
      [{ name: "Night", periods: [{ ...period, days: [0, 7] }] }, "periods.0.days.1"],
      [{ name: "Night", periods: [{ ...period, limit: 5 }] }, "periods.0.limit"],
      [{ name: "Night", periods: [{ ...period, start_time: "24:00" }] }, "periods.0.start_time"],
      [{ name: "Night", periods: [{ ...period, end_time: "4:30" }] }, "periods.0.end_time"],
    ],
    "add-id-tags": [
      [{ id_tags: [{ id: "A".repeat(21) }] }, "id_tags.0.id"],
      [{ id_tags: [{ id: "" }] }, "id_tags.0.id"],
      [{ id_tags: [] }, "id_tags"],
    ],
    "rename-id-tag": [[{ tag_id: "A".repeat(21), alias: "Fob" }, "tag_id"]],
    "adjust-cp-voltage-range": [
      [{ min: 7.5, max: 10.2 }, "min"],
      [{ min: 7.8, max: 10.6 }, "max"],
    ],
    "set-max-import-capacity": [
      [{ value: 39 }, "value"],
      [{ value: 60.5 }, "value"],
    ],
    "adjust-suspended-state-wait-timeout": [[{ value: 43201 }, "value"]],
    "configure-inverter-control": [[{ max_battery_discharge_power_to_evc: -1 }, "max_battery_discharge_power_to_evc"]],
  };

  const rows = Object.entries(BAD).flatMap(([id, cases]) =>
    (cases ?? []).map(([request, field]) => ({ id, request: request as unknown, field })),
  );

  it.each(rows)("$id refuses $field = $request locally", async ({ id, request, field }) => {
    const api = cloud.client.evChargers;
    const sending = api.sendCommand(UUID, id as EvCommandId, request as EvCommandRequest<EvCommandId>);
    await expect(sending).rejects.toBeInstanceOf(InvalidRequestError);
    const error: unknown = await sending.catch((e: unknown) => e);
    expect(error instanceof InvalidRequestError ? Object.keys(error.errors) : []).toContain(field);
    expect(cloud.requests).toHaveLength(0);
  });

  it("the bounds themselves are accepted", async () => {
    const accepted: [EvCommandId, unknown][] = [
      ["adjust-charge-power-limit", { limit: 6 }],
      ["adjust-charge-power-limit", { limit: 32 }],
      ["set-session-energy-limit", { limit: 0.1 }],
      ["set-session-energy-limit", { limit: 250 }],
      ["change-randomised-delay-duration", { duration: 600 }],
      ["change-randomised-delay-duration", { duration: 1800 }],
      ["set-schedule", { name: "x".repeat(30), periods: [{ ...period, days: [0, 6], end_time: "23:59" }] }],
      ["add-id-tags", { id_tags: [{ id: "A".repeat(20) }] }],
      ["adjust-cp-voltage-range", { min: 8, max: 10 }],
      ["set-max-import-capacity", { value: 40 }],
      ["adjust-suspended-state-wait-timeout", { value: 0 }],
    ];
    for (const [id] of accepted) cloud.reply("POST", `${base}/commands/${id}`, { body: SUCCESS });
    for (const [id, request] of accepted) {
      const result = await cloud.client.evChargers.sendCommand(UUID, id, request as EvCommandRequest<EvCommandId>);
      expect(result.ok).toBe(true);
    }
    expect(cloud.requests.map((r) => r.body)).toEqual(accepted.map(([, request]) => request));
  });

  it("refuses unknown fields and unknown command IDs without sending", async () => {
    const api = cloud.client.evChargers;
    const typo: unknown = { limt: 10 };
    await expect(
      api.sendCommand(UUID, "set-session-energy-limit", typo as EvCommandRequest<"set-session-energy-limit">),
    ).rejects.toBeInstanceOf(InvalidRequestError);
    const unknownId: unknown = "self-destruct";
    await expect(api.sendCommand(UUID, unknownId as EvCommandId, {})).rejects.toMatchObject({
      name: "InvalidRequestError",
      errors: { command_id: [expect.stringContaining("self-destruct")] },
    });
    const badMode: unknown = { configuration_mode: "F" };
    await expect(
      api.sendCommand(UUID, "configuration-mode", badMode as EvCommandRequest<"configuration-mode">),
    ).rejects.toBeInstanceOf(InvalidRequestError);
    const badInstall: unknown = { installation_mode: "solar" };
    await expect(
      api.sendCommand(UUID, "installation-mode", badInstall as EvCommandRequest<"installation-mode">),
    ).rejects.toBeInstanceOf(InvalidRequestError);
    expect(cloud.requests).toHaveLength(0);
  });
});

describe("EV chargers section: command results", () => {
  let cloud = mockCloud();
  afterEach(async () => {
    await cloud.close();
    cloud = mockCloud();
  });

  const path = `${base}/commands/adjust-charge-power-limit`;
  const send = (): Promise<EvCommandResult> => cloud.client.evChargers.setChargePowerLimit(UUID, 16);

  it.each([
    [-1, "TIMEOUT", true],
    [-2, "CHARGER_OFFLINE", false],
    [-3, "INVALID_DATA", false],
    [-4, "FAILURE", true],
  ] as const)("code %i is %s, mayHaveApplied %s, without throwing", async (code, name, mayHaveApplied) => {
    cloud.reply("POST", path, { body: { data: { code, success: false, message: name } } });
    const result = await send();
    expect(result).toMatchObject({ ok: false, code, name, mayHaveApplied, message: name });
  });

  it("code 0 is ok", async () => {
    cloud.reply("POST", path, { body: { data: { code: 0, success: true, message: "Command sent" } } });
    expect(await send()).toEqual({ ok: true, code: 0, message: "Command sent" });
  });

  it("code -5 with a charger CallError is a refusal that did not apply", async () => {
    const error = { code: "NotSupported", type: "CallError", message: "Requested action is not supported" };
    cloud.reply("POST", path, { body: { data: { code: -5, success: false, message: "CallError", error } } });
    const result = await send();
    expect(result).toMatchObject({
      ok: false,
      code: -5,
      name: "ERROR",
      mayHaveApplied: false,
      message: "CallError",
      error,
    });
    expect(result.ok ? "" : result.reason).toContain("NotSupported");
  });

  it("code -5 from the server may have applied", async () => {
    const error = { type: "ServerError", message: "Unable to reach the charger's OCPP server" };
    cloud.reply("POST", path, { body: { data: { code: -5, success: false, message: "Error", error } } });
    const result = await send();
    expect(result).toMatchObject({ ok: false, code: -5, mayHaveApplied: true, message: "Error", error });
  });

  it("reads a result sent at the top level, keeping a CallError's own data", async () => {
    const error = { code: "PropertyConstraintViolation", type: "CallError", message: "limit out of range" };
    cloud.reply("POST", path, {
      body: { code: -5, success: false, message: "CallError", error, data: { extra: "max 16 A on this supply" } },
    });
    const result = await send();
    expect(result).toMatchObject({
      ok: false,
      code: -5,
      mayHaveApplied: false,
      error,
      data: { extra: "max 16 A on this supply" },
    });
  });

  it("reads a top-level success", async () => {
    cloud.reply("POST", path, { body: { code: 0, success: true, message: "Command sent" } });
    expect(await send()).toEqual({ ok: true, code: 0, message: "Command sent" });
  });

  it("a result code in the body of a 400 is still a result, not an exception", async () => {
    cloud.reply("POST", path, {
      status: 400,
      body: { data: { code: -2, success: false, message: "Charger offline" } },
    });
    expect(await send()).toMatchObject({ ok: false, code: -2, mayHaveApplied: false });
    expect(cloud.requests).toHaveLength(1);
  });

  it("a POST that gets a 503 is not retried", async () => {
    cloud.reply("POST", path, { status: 503, body: { message: "Down for maintenance" } }, 3);
    await expect(send()).rejects.toBeInstanceOf(ServerError);
    expect(cloud.requests).toHaveLength(1);
  });

  it("a 422 from the server is still a ValidationError", async () => {
    cloud.reply("POST", `${base}/commands/set-schedule`, {
      status: 422,
      body: { message: "The given data was invalid.", errors: { "periods.0.start_time": ["Invalid time"] } },
    });
    await expect(
      cloud.client.evChargers.sendCommand(UUID, "set-schedule", {
        name: "Night",
        periods: [{ start_time: "01:00", end_time: "05:00", limit: 16, days: [5, 6] }],
      }),
    ).rejects.toMatchObject({ name: "ValidationError", errors: { "periods.0.start_time": ["Invalid time"] } });
  });
});
