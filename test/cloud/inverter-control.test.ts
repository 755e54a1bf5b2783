import { afterEach, describe, expect, it } from "vitest";
import { InvalidRequestError, ServerError } from "../../src/cloud/errors.js";
import { PRESETS, slots } from "../../src/cloud/schemas/inverter-control.js";
import { inverterControlEndpoints } from "../../src/cloud/sections/inverter-control.js";
import { expectRequest, mockCloud } from "../helpers/mock-cloud.js";

// Entries copied verbatim from a real GET /inverter/{serial}/settings listing of a Gen3 hybrid:
// the Apache-2.0 project abedegno/givlocal, file api/cloud-data/settings.json
// (via test/fixtures/inverter-settings.gen3-hybrid.json).
const GEN3_SETTINGS = {
  data: [
    {
      id: 17,
      name: "Enable AC Charge Upper % Limit",
      validation: "Value must be either true or false",
      validation_rules: ["boolean"],
    },
    {
      id: 24,
      name: "Enable Eco Mode",
      validation: "Value must be either true or false",
      validation_rules: ["boolean"],
    },
    {
      id: 64,
      name: "AC Charge 1 Start Time",
      validation: "Value format should be HH:mm. Use correct time range for hour and minutes",
      validation_rules: ["date_format:H:i"],
    },
    {
      id: 71,
      name: "Battery Reserve % Limit",
      validation: "Value must be between 4 and 100",
      validation_rules: ["between:4,100"],
    },
    {
      id: 77,
      name: "AC Charge Upper % Limit",
      validation: "Value must be between 0 and 100",
      validation_rules: ["between:0,100"],
    },
    {
      id: 504,
      name: "Real-Time Control",
      validation: "Value must be either true or false",
      validation_rules: ["boolean"],
    },
    {
      id: 96,
      name: "Pause Battery",
      validation:
        "Value must be one of: 0, 1, 2, 3 (Not Paused, Pause Charge, Pause Discharge, Pause Charge & Discharge)",
      validation_rules: ["in:0,1,2,3"],
    },
    {
      id: 155,
      name: "Pause Battery Start Time",
      validation: "Value format should be HH:mm. Use correct time range for hour and minutes",
      validation_rules: ["date_format:H:i"],
    },
  ],
};

const PRESET_DESCRIPTORS = {
  data: [
    {
      id: 0,
      identifier: "eco-mode",
      name: "Eco Mode",
      description: "Dynamically charge and discharge to minimise grid import.",
      parameters: { enabled: { description: "Enable eco mode", validation: ["required", "boolean"] } },
    },
    {
      id: 1,
      identifier: "timed-charge",
      name: "Timed Charge",
      description: "Timed charging",
      parameters: {
        enabled: { description: "Enable timed charging", validation: ["required", "boolean"] },
        slots: {
          description: "Charge slots",
          validation: [
            "optional",
            "object",
            "property:start_time:date_format:H:i",
            "property:percent_limit:between:4,100",
          ],
        },
      },
    },
    // An older answer: no identifier, and PHP's empty parameters as [].
    { id: 17, name: "Smart Load", description: "Powers the smart-load circuit.", parameters: [] },
  ],
};

const CODES = [
  { code: -1, mayHaveApplied: true },
  { code: -2, mayHaveApplied: false },
  { code: -3, mayHaveApplied: false },
  { code: -4, mayHaveApplied: false },
  { code: -5, mayHaveApplied: true },
  { code: -6, mayHaveApplied: true },
  { code: -7, mayHaveApplied: false },
];

describe("inverter control section", () => {
  let cloud = mockCloud();
  afterEach(async () => {
    await cloud.close();
    cloud = mockCloud();
  });

  it("every control endpoint needs api:inverter:control", () => {
    for (const endpoint of Object.values(inverterControlEndpoints))
      expect(endpoint.scopes).toEqual(["api:inverter:control"]);
    expect(inverterControlEndpoints.readSetting.idempotent).toBe(true);
    expect(inverterControlEndpoints.multiControlRead.idempotent).toBe(true);
    expect(inverterControlEndpoints.writeSetting.idempotent).toBe(false);
    expect(inverterControlEndpoints.multiControlWrite.idempotent).toBe(false);
    expect(inverterControlEndpoints.modifyPreset.idempotent).toBe(false);
  });

  it("GET presets reads descriptors, with and without identifier", async () => {
    cloud.reply("GET", "/inverter/SA1/presets", { body: PRESET_DESCRIPTORS });
    const presets = await cloud.client.inverterControl.presets("SA1");
    expectRequest(cloud.only(), "GET", "/v1/inverter/SA1/presets", undefined);
    expect(presets.map((p) => [p.id, p.identifier])).toEqual([
      [0, "eco-mode"],
      [1, "timed-charge"],
      [17, undefined],
    ]);
    expect(presets[1]?.parameters.slots?.validation).toContain("property:start_time:date_format:H:i");
    expect(presets[0]?.parameters.enabled).toEqual({
      description: "Enable eco mode",
      validation: ["required", "boolean"],
    });
    expect(presets[2]?.parameters).toEqual({});
  });

  it("knows the 13 presets and their legacy IDs", () => {
    expect(Object.keys(PRESETS)).toHaveLength(13);
    expect(PRESETS["pause-battery"]).toBe(18);
    expect(PRESETS["grid-settings"]).toBe(14);
    expect(PRESETS["eco-mode"]).toBe(0);
  });

  it("GET presets/{id} reads the current values, slots as an array or keyed by slot number", async () => {
    cloud.reply("GET", "/inverter/SA1/presets/timed-charge", {
      body: {
        data: {
          enabled: true,
          slots: [
            { start_time: "00:30", end_time: "04:30", percent_limit: 100 },
            { start_time: "13:00:00", end_time: "15:00:00", percent_limit: 80 },
          ],
        },
      },
    });
    const values = await cloud.client.inverterControl.presetValues("SA1", "timed-charge");
    expectRequest(cloud.only(), "GET", "/v1/inverter/SA1/presets/timed-charge", undefined);
    expect(values.enabled).toBe(true);
    // Slots read the same whichever form they came in.
    const fromArray = slots.parse(values.slots);
    expect(fromArray["2"]).toEqual({ start_time: "13:00:00", end_time: "15:00:00", percent_limit: 80 });
    expect(slots.parse({ "2": { start_time: "13:00", end_time: "15:00" } })).toEqual({
      "2": { start_time: "13:00", end_time: "15:00" },
    });
  });

  it("POST presets/{preset} sends fields, context and force; reads the newer 201 top-level answer", async () => {
    cloud.reply("POST", "/inverter/SA1/presets/timed-charge", {
      status: 201,
      body: { success: true, message: "Preset applied" },
    });
    const change = await cloud.client.inverterControl.modifyPreset(
      "SA1",
      "timed-charge",
      { slots: { 2: { start_time: "05:30", end_time: "06:00" } } },
      { force: false },
    );
    expectRequest(cloud.only(), "POST", "/v1/inverter/SA1/presets/timed-charge", {
      slots: { "2": { start_time: "05:30", end_time: "06:00" } },
      context: "energy2mqtt",
      force: false,
    });
    expect(change).toEqual({ success: true, message: "Preset applied" });
  });

  it("POST presets/{legacy id} reads the older 200 answer inside data, and leaves force out unless given", async () => {
    cloud.reply("POST", "/inverter/SA1/presets/0", { body: { data: { success: false, message: "Inverter Locked" } } });
    const change = await cloud.client.inverterControl.modifyPreset(
      "SA1",
      0,
      { enabled: true },
      { context: "my-script" },
    );
    expectRequest(cloud.only(), "POST", "/v1/inverter/SA1/presets/0", { enabled: true, context: "my-script" });
    expect(change).toEqual({ success: false, message: "Inverter Locked" });
  });

  it("refuses slot times that are not HH:mm and slot numbers below 1, sending nothing", async () => {
    await expect(
      cloud.client.inverterControl.modifyPreset("SA1", "timed-charge", { slots: [{ start_time: "5:30" }] }),
    ).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(
      cloud.client.inverterControl.modifyPreset("SA1", "timed-charge", { slots: { 0: { start_time: "05:30" } } }),
    ).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(cloud.client.inverterControl.modifyPreset("SA1", "", { enabled: true })).rejects.toBeInstanceOf(
      InvalidRequestError,
    );
    expect(cloud.requests).toHaveLength(0);
  });

  it("GET settings reads a real Gen3 hybrid listing", async () => {
    cloud.reply("GET", "/inverter/SA1/settings", { body: GEN3_SETTINGS });
    const settings = await cloud.client.inverterControl.settings("SA1");
    expectRequest(cloud.only(), "GET", "/v1/inverter/SA1/settings", undefined);
    expect(settings).toHaveLength(8);
    expect(settings.find((s) => s.id === 96)?.validation_rules).toEqual(["in:0,1,2,3"]);
    expect(settings.find((s) => s.id === 504)?.name).toBe("Real-Time Control");
  });

  it("POST settings/{id}/read sends the context and reads the value", async () => {
    cloud.reply("POST", "/inverter/SA1/settings/71/read", { body: { data: { value: 4 } } });
    const result = await cloud.client.inverterControl.readSetting("SA1", 71);
    expectRequest(cloud.only(), "POST", "/v1/inverter/SA1/settings/71/read", { context: "energy2mqtt" });
    expect(result).toMatchObject({ ok: true, value: 4 });
  });

  it("POST settings/{id}/write sends value and context and reads the answer", async () => {
    cloud.reply("POST", "/inverter/SA1/settings/64/write", {
      body: { data: { value: "05:30", success: true, message: "Written Successfully" } },
    });
    const result = await cloud.client.inverterControl.writeSetting("SA1", 64, "05:30");
    expectRequest(cloud.only(), "POST", "/v1/inverter/SA1/settings/64/write", {
      value: "05:30",
      context: "energy2mqtt",
    });
    expect(result).toEqual({ ok: true, value: "05:30", message: "Written Successfully" });
  });

  it("writes booleans and numbers as JSON booleans and numbers", async () => {
    cloud.reply("POST", "/inverter/SA1/settings/24/write", {
      body: { data: { value: true, success: true, message: "ok" } },
    });
    cloud.reply("POST", "/inverter/SA1/settings/71/write", {
      body: { data: { value: 10, success: true, message: "ok" } },
    });
    await cloud.client.inverterControl.writeSetting("SA1", 24, true);
    await cloud.client.inverterControl.writeSetting("SA1", 71, 10, { context: "tariff-rule" });
    expect(cloud.requests.map((r) => r.body)).toEqual([
      { value: true, context: "energy2mqtt" },
      { value: 10, context: "tariff-rule" },
    ]);
  });

  for (const { code, mayHaveApplied } of CODES) {
    it(`code ${code} on read and write is a failure that ${mayHaveApplied ? "may" : "did not"} apply`, async () => {
      cloud.reply("POST", "/inverter/SA1/settings/71/read", { body: { data: { value: code } } });
      cloud.reply("POST", "/inverter/SA1/settings/71/write", {
        body: { data: { value: code, success: false, message: "refused" } },
      });
      const read = await cloud.client.inverterControl.readSetting("SA1", 71);
      const write = await cloud.client.inverterControl.writeSetting("SA1", 71, 20);
      expect(read).toMatchObject({ ok: false, code, mayHaveApplied });
      expect(write).toMatchObject({ ok: false, code, mayHaveApplied, message: "refused" });
    });
  }

  it("a negative value marked successful is a legitimate value", async () => {
    cloud.reply("POST", "/inverter/SA1/settings/300/read", {
      body: { data: { value: -1, success: true, message: "Read" } },
    });
    const result = await cloud.client.inverterControl.readSetting("SA1", 300);
    expect(result).toEqual({ ok: true, value: -1, message: "Read" });
  });

  it("does not retry a setting write answered 503", async () => {
    cloud.reply("POST", "/inverter/SA1/settings/71/write", { status: 503, body: { message: "maintenance" } });
    cloud.reply("POST", "/inverter/SA1/settings/71/write", { body: { data: { value: 20, success: true } } });
    await expect(cloud.client.inverterControl.writeSetting("SA1", 71, 20)).rejects.toBeInstanceOf(ServerError);
    expect(cloud.requests).toHaveLength(1);
  });

  it("retries a setting read answered 503", async () => {
    cloud.reply("POST", "/inverter/SA1/settings/71/read", { status: 503, body: { message: "maintenance" } });
    cloud.reply("POST", "/inverter/SA1/settings/71/read", { body: { data: { value: 20 } } });
    const result = await cloud.client.inverterControl.readSetting("SA1", 71);
    expect(cloud.requests).toHaveLength(2);
    expect(cloud.requests[1]?.body).toEqual({ context: "energy2mqtt" });
    expect(result).toMatchObject({ ok: true, value: 20 });
  });

  it("refuses a setting id that is not a whole number, and a NaN value, sending nothing", async () => {
    await expect(cloud.client.inverterControl.readSetting("SA1", 7.5)).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(cloud.client.inverterControl.writeSetting("SA1", 71, Number.NaN)).rejects.toBeInstanceOf(
      InvalidRequestError,
    );
    expect(cloud.requests).toHaveLength(0);
  });

  it("POST multi-control/read reads an answer keyed by serial, plain values or objects", async () => {
    cloud.reply("POST", "/multi-control/read", {
      body: { data: { SA1: 20, SA2: -2, SA3: { value: 30, success: true, message: "Read" }, SA4: { value: -6 } } },
    });
    const results = await cloud.client.inverterControl.multiControlRead({
      inverter_serials: ["SA1", "SA2", "SA3", "SA4"],
      setting_id: 71,
    });
    expectRequest(cloud.only(), "POST", "/v1/multi-control/read", {
      inverter_serials: ["SA1", "SA2", "SA3", "SA4"],
      setting_id: 71,
    });
    expect(results.SA1).toMatchObject({ ok: true, value: 20 });
    expect(results.SA2).toMatchObject({ ok: false, code: -2, mayHaveApplied: false });
    expect(results.SA3).toMatchObject({ ok: true, value: 30, message: "Read" });
    expect(results.SA4).toMatchObject({ ok: false, code: -6, mayHaveApplied: true });
  });

  it("POST multi-control/read also reads an array of rows", async () => {
    cloud.reply("POST", "/multi-control/read", {
      body: {
        data: [
          { serial: "SA1", value: 20 },
          { inverter_serial: "SA2", value: -1 },
        ],
      },
    });
    const results = await cloud.client.inverterControl.multiControlRead({
      inverter_serials: ["SA1", "SA2"],
      setting_id: 71,
    });
    expect(Object.keys(results)).toEqual(["SA1", "SA2"]);
    expect(results.SA1).toMatchObject({ ok: true, value: 20 });
    expect(results.SA2).toMatchObject({ ok: false, code: -1, mayHaveApplied: true });
  });

  it("POST multi-control/write sends the value as a string and is not retried", async () => {
    cloud.reply("POST", "/multi-control/write", { body: { data: { SA1: "1", SA2: -7 } } });
    const results = await cloud.client.inverterControl.multiControlWrite({
      inverter_serials: ["SA1", "SA2"],
      setting_id: 24,
      value: true,
    });
    expectRequest(cloud.only(), "POST", "/v1/multi-control/write", {
      inverter_serials: ["SA1", "SA2"],
      setting_id: 24,
      value: "1",
    });
    expect(results.SA1).toMatchObject({ ok: true, value: "1" });
    expect(results.SA2).toMatchObject({ ok: false, code: -7, mayHaveApplied: false });

    cloud.reply("POST", "/multi-control/write", { status: 503 });
    await expect(
      cloud.client.inverterControl.multiControlWrite({ inverter_serials: ["SA1"], setting_id: 71, value: 20 }),
    ).rejects.toBeInstanceOf(ServerError);
    expect(cloud.requests).toHaveLength(2);
    expect(cloud.requests[1]?.body).toEqual({ inverter_serials: ["SA1"], setting_id: 71, value: "20" });
  });

  it("refuses no serials and more than 1000 serials, sending nothing", async () => {
    const tooMany = Array.from({ length: 1001 }, (_, i) => `SA${i}`);
    await expect(
      cloud.client.inverterControl.multiControlRead({ inverter_serials: [], setting_id: 71 }),
    ).rejects.toMatchObject({ name: "InvalidRequestError", errors: { inverter_serials: [expect.any(String)] } });
    await expect(
      cloud.client.inverterControl.multiControlWrite({ inverter_serials: tooMany, setting_id: 71, value: 20 }),
    ).rejects.toMatchObject({ name: "InvalidRequestError", errors: { inverter_serials: [expect.any(String)] } });
    expect(cloud.requests).toHaveLength(0);
  });

  it("accepts exactly 1000 serials", async () => {
    const serials = Array.from({ length: 1000 }, (_, i) => `SA${i}`);
    cloud.reply("POST", "/multi-control/read", { body: { data: {} } });
    const results = await cloud.client.inverterControl.multiControlRead({ inverter_serials: serials, setting_id: 71 });
    expect(cloud.only().body).toMatchObject({ inverter_serials: serials });
    expect(results).toEqual({});
  });
});
