import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CloudClient } from "../../src/cloud/client.js";
import { ResponseShapeError } from "../../src/cloud/errors.js";
import { RateBudget, RateBudgetRegistry } from "../../src/cloud/rate-budget.js";
import type { RemoteControlResult } from "../../src/cloud/results.js";
import type { Account } from "../../src/cloud/schemas/account.js";
import type { CommunicationDevice } from "../../src/cloud/schemas/communication-device.js";
import type { EvCommandId } from "../../src/cloud/schemas/ev-commands.js";
import type { SettingDescriptor, SettingValue } from "../../src/cloud/schemas/inverter-control.js";
import type {
  InverterDataPoint,
  InverterFaultEvent,
  MeterData,
  SystemData,
} from "../../src/cloud/schemas/inverter-data.js";
import type { Site } from "../../src/cloud/schemas/site.js";
import type { SmartDevice, SmartDeviceDataPoint } from "../../src/cloud/schemas/smart-device.js";

/*
 * Every body in test/fixtures/real-responses (bodies of the real service and of its
 * official documentation) is served over HTTP and read with the client's own method for its
 * endpoint: the production transport, envelope and schema. Each must parse and keep what the
 * daemon uses. The one exception is a documentation example that is not JSON at all.
 */

const DIR = new URL("../fixtures/real-responses/", import.meta.url);
if (!existsSync(DIR)) {
  throw new Error(
    `the real responses are missing: expected them in ${fileURLToPath(DIR)} (test/fixtures/real-responses)`,
  );
}

interface Fixture {
  readonly file: string;
  /** "METHOD /path/{param}". */
  readonly endpoint: string;
  readonly response: unknown;
}

const FIXTURES: Fixture[] = readdirSync(DIR)
  .filter((name) => name.endsWith(".json"))
  .sort()
  .map((file) => {
    const parsed = JSON.parse(readFileSync(new URL(file, DIR), "utf8")) as { endpoint: string; response: unknown };
    return { file, endpoint: parsed.endpoint, response: parsed.response };
  });

const SERIAL = "ce2234g437";
const CHARGER = "9c6f3c1e-6b2a-4f3e-9a51-2b7d1c0e8f44";
const SMART = "66d025a2-bb1b-4518-b649-e314d8333ff7";

/** The body's `data`. */
function dataOf(fixture: Fixture): unknown {
  return (fixture.response as { data: unknown }).data;
}

/** The value a read or write answered with. */
function answeredValue(fixture: Fixture): SettingValue {
  return (dataOf(fixture) as { value: SettingValue }).value;
}

const commandData =
  (command: EvCommandId) =>
  (client: CloudClient): Promise<unknown> =>
    client.evChargers.commandData(CHARGER, command);

/** The client's method for each endpoint of the evidence, keyed with the parameter names left out. */
const CALLS: Readonly<Record<string, (client: CloudClient, fixture: Fixture) => Promise<unknown>>> = {
  "GET /account": (client) => client.account.get(),
  "GET /account/{}": (client) => client.account.getById(238),
  "GET /account/search/{}": (client) => client.account.search("kelly44"),
  "GET /account-children": (client) => client.account.children().all(),
  "GET /account-children/{}": (client) => client.account.childrenOf(238).all(),
  "GET /communication-device": (client) => client.communicationDevices.list().all(),
  "GET /communication-device/{}": (client) => client.communicationDevices.get("56ynla1zgh"),
  "GET /inverter/{}/events": (client) => client.inverterData.events(SERIAL, { cleared: true }).all(),
  "GET /inverter/{}/data-points/{}": (client) => client.inverterData.dataPoints(SERIAL, "2024-10-17").all(),
  "GET /inverter/{}/system-data/latest": (client) => client.inverterData.systemDataLatest(SERIAL),
  "GET /inverter/{}/meter-data/latest": (client) => client.inverterData.meterDataLatest(SERIAL),
  "GET /inverter/{}/settings": (client) => client.inverterControl.settings(SERIAL),
  "GET /inverter/{}/presets": (client) => client.inverterControl.presets(SERIAL),
  "POST /inverter/{}/presets/{}": (client) =>
    client.inverterControl.modifyPreset(SERIAL, "eco-mode", { enabled: true }),
  "POST /inverter/{}/settings/{}/read": (client) => client.inverterControl.readSetting(SERIAL, 266),
  "POST /inverter/{}/settings/{}/write": (client, fixture) => {
    const value = answeredValue(fixture);
    return client.inverterControl.writeSetting(SERIAL, 266, value ?? "");
  },
  "GET /site": (client) => client.sites.list().all(),
  "GET /site/{}": (client) => client.sites.get(61435),
  "GET /smart-device": (client) => client.smartDevices.list().all(),
  "POST /smart-device": (client) => client.smartDevices.create({ serial_number: "SD0000001", alias: "laborum" }),
  "GET /smart-device/{}": (client) => client.smartDevices.get(SMART),
  "GET /smart-device/{}/data": (client) => client.smartDevices.data(SMART).all(),
  "POST /smart-device/{}/data": (client) =>
    client.smartDevices.addData(SMART, { time: "2022-04-01T11:41:55Z", power: 498 }),
  "GET /ev-charger/{}/commands": (client) => client.evChargers.commands(CHARGER),
  "GET /ev-charger/{}/commands/adjust-charge-power-limit": commandData("adjust-charge-power-limit"),
  "GET /ev-charger/{}/commands/set-plug-and-go": commandData("set-plug-and-go"),
  "GET /ev-charger/{}/commands/set-schedule": commandData("set-schedule"),
  "GET /ev-charger/{}/commands/set-session-energy-limit": commandData("set-session-energy-limit"),
  "GET /ev-charger/{}/commands/unlock-connector": commandData("unlock-connector"),
};

const keyOf = (endpoint: string): string => endpoint.replace(/\{[^}]+\}/g, "{}");

/** The path the client must have asked for, as a pattern: each `{param}` one path segment. */
function pathPattern(endpoint: string): RegExp {
  const path = endpoint.slice(endpoint.indexOf(" ") + 1);
  const escaped = path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}/g, "[^/]+");
  return new RegExp(`^/v1${escaped}$`);
}

type Check = (parsed: unknown, fixture: Fixture) => void;

/** Every field of the body is in what the client returns (extra defaults, such as empty lists, aside). */
const keepsAll: Check = (parsed, fixture) => expect(parsed).toMatchObject(dataOf(fixture) as object);

const readAnswer =
  (value: SettingValue): Check =>
  (parsed) =>
    expect(parsed as RemoteControlResult<SettingValue>).toEqual({ ok: true, value });

const writeAnswer =
  (value: SettingValue, message: string): Check =>
  (parsed) =>
    expect(parsed as RemoteControlResult<SettingValue>).toEqual({ ok: true, value, message });

/** What each file must give, beyond parsing. */
const CHECKS: Readonly<Record<string, Check>> = {
  "avasapollo_events.json": (parsed, fixture) => {
    keepsAll(parsed, fixture);
    const events = parsed as InverterFaultEvent[];
    expect(events).toHaveLength(4);
    expect(events[0]).toEqual({
      event: "Battery Voltage Low",
      start_time: "2024-10-03T11:33:07Z",
      end_time: "2024-10-03T11:55:21Z",
    });
  },
  "avasapollo_read_bool.json": readAnswer(true),
  "avasapollo_read_int.json": readAnswer(100),
  "avasapollo_read_time.json": readAnswer("01:00"),
  "avasapollo_settings_list.json": (parsed) =>
    expect(parsed as SettingDescriptor[]).toEqual([
      {
        id: 266,
        name: "DC Discharge 3 End Time",
        validation: "Value format should be HH:mm. Use correct time range for hour and minutes",
        validation_rules: ["date_format:H:i"],
      },
    ]),
  "avasapollo_system_data_latest.json": (parsed, fixture) => {
    expect(parsed).toEqual(dataOf(fixture));
    const data = parsed as SystemData;
    expect(data.battery?.power).toBe(-1251);
    expect(data.solar?.arrays.map((array) => array.power)).toEqual([2684, 0]);
    expect(data.consumption).toBe(183);
  },
  "avasapollo_write_bool.json": writeAnswer(true, "Written Successfully"),
  "avasapollo_write_int.json": writeAnswer(100, "Written Successfully"),
  "avasapollo_write_time.json": writeAnswer("16:00", "Written Successfully"),
  "doc_get_account.json": (parsed, fixture) => {
    keepsAll(parsed, fixture);
    expect((parsed as Account).flags).toEqual([]);
  },
  "doc_get_account_children.json": keepsAll,
  "doc_get_account_children_account.json": keepsAll,
  "doc_get_account_id.json": keepsAll,
  "doc_get_account_search_account_user_account.json": keepsAll,
  "doc_get_communication_device.json": (parsed, fixture) => {
    const devices = parsed as CommunicationDevice[];
    expect(devices.map((device) => device.inverter?.serial)).toEqual(["xh7919g641", "ra0938o569"]);
    for (const device of devices) {
      // PHP's empty object: no batteries, no meters, no gateway dongle.
      expect(device.inverter?.connections).toEqual({ batteries: [], meters: [] });
      expect(device.inverter?.firmware_version).toEqual({ ARM: 420, DSP: 426 });
      expect(device.inverter?.info?.model).toBe("Unknown");
      expect(device.inverter?.flags).toEqual([]);
    }
    expect(devices[1]?.inverter?.status).toBe("WARNING");
    const raw = dataOf(fixture) as { inverter: { connections: unknown } }[];
    expect(devices.map(({ inverter }) => ({ ...inverter, connections: [] }))).toMatchObject(
      raw.map((device) => device.inverter),
    );
  },
  "doc_get_communication_device_id.json": (parsed) => {
    const device = parsed as CommunicationDevice;
    expect(device.serial_number).toBe("56ynla1zgh");
    expect(device.inverter?.serial).toBe("mz3754u049");
    expect(device.inverter?.status).toBe("LOST");
    expect(device.inverter?.warranty).toEqual({ type: null, expiry_date: "1978-09-27T07:09:03Z" });
    expect(device.inverter?.connections).toEqual({ batteries: [], meters: [] });
  },
  "doc_get_inverter_inverter_data_points_date.json": (parsed, fixture) => {
    keepsAll(parsed, fixture);
    const points = parsed as InverterDataPoint[];
    expect(points[0]?.power?.consumption).toEqual({ power: 22636 });
    expect(points[0]?.total?.grid).toEqual({ import: 46257.7, export: 70458.1 });
  },
  "doc_get_inverter_inverter_events.json": (parsed, fixture) => {
    keepsAll(parsed, fixture);
    expect((parsed as InverterFaultEvent[]).map((event) => event.end_time)).toEqual([null, null]);
  },
  "doc_get_inverter_inverter_meter_data_latest.json": (parsed, fixture) => {
    keepsAll(parsed, fixture);
    expect((parsed as MeterData).today?.battery).toEqual({ charge: 60633.8, discharge: 46612.4 });
  },
  "doc_get_inverter_inverter_settings.json": (parsed) =>
    // The documentation shows one setting where the service sends a list: read as a list of one.
    expect(parsed as SettingDescriptor[]).toEqual([{ id: 96, name: "418 Meter Direction", validation_rules: [] }]),
  "doc_get_inverter_inverter_system_data_latest.json": (parsed, fixture) => expect(parsed).toEqual(dataOf(fixture)),
  "doc_get_site.json": (parsed, fixture) => {
    keepsAll(parsed, fixture);
    expect((parsed as Site[]).map((site) => site.date_created)).toEqual(["1987-04-18", "2006-10-24"]);
  },
  "doc_get_site_id.json": keepsAll,
  "doc_get_smart_device.json": (parsed) =>
    expect(parsed as SmartDevice[]).toEqual([
      { uuid: "a9dc24e7-f14a-40cd-947d-f1a0e7ff7987", alias: "veniam", other_data: {} },
      { uuid: "e9453fa4-ae59-4c6f-8d57-11dd65e07f16", alias: "laudantium", other_data: {} },
    ]),
  "doc_get_smart_device_id.json": (parsed) =>
    // The example answers a list: the device asked for is taken from it.
    expect(parsed as SmartDevice).toEqual({ uuid: SMART, alias: "veniam", other_data: {} }),
  "doc_get_smart_device_smart_device_id_data.json": keepsAll,
  "doc_post_inverter_inverter_presets_id.json": (parsed) =>
    expect(parsed).toEqual({ success: true, message: "Read Successfully" }),
  "doc_post_inverter_inverter_settings_setting_read.json": readAnswer("Unknown (32469)"),
  "doc_post_inverter_inverter_settings_setting_write.json": writeAnswer("Unknown (32613)", "Read Successfully"),
  "doc_post_smart_device.json": (parsed) =>
    expect((parsed as SmartDevice[]).map((device) => [device.alias, device.other_data])).toEqual([
      ["laborum", {}],
      ["et", {}],
    ]),
  "doc_post_smart_device_smart_device_uuid_data.json": (parsed, fixture) => {
    keepsAll(parsed, fixture);
    expect((parsed as SmartDeviceDataPoint[]).map((point) => point.power)).toEqual([498, 890]);
  },
  "predbat_comment_evc_cmd_adjust_charge_power_limit.json": (parsed) =>
    expect(parsed).toEqual({ min: 6, max: 32, value: 32, unit: "A" }),
  "predbat_comment_evc_cmd_set_plug_and_go.json": (parsed) =>
    expect(parsed).toEqual({ value: false, disabled: false, message: null }),
  "predbat_comment_evc_cmd_set_schedule.json": (parsed) => expect(parsed).toEqual({ schedules: [] }),
  "predbat_comment_evc_cmd_set_session_energy_limit.json": (parsed) =>
    expect(parsed).toEqual({ min: 0.1, max: 250, value: null, unit: "kWh" }),
  "predbat_comment_evc_cmd_unlock_connector.json": (parsed) => expect(parsed).toEqual([]),
  "predbat_comment_evc_commands.json": (parsed, fixture) => {
    // Every command the charger lists is kept, known to this client or not.
    expect(parsed).toEqual(dataOf(fixture));
    expect(parsed).toContain("enable-local-control");
    expect(parsed).toContain("perform-factory-reset");
  },
  "predbat_doc_account.json": (parsed, fixture) => {
    expect(parsed).toEqual(dataOf(fixture));
    expect((parsed as Account).standard_timezone).toBe("Europe/London");
  },
  "predbat_doc_communication_device_list.json": (parsed, fixture) => {
    // Three real devices: nothing is dropped.
    expect(parsed).toEqual(dataOf(fixture));
    const [aio, , gateway] = parsed as CommunicationDevice[];
    expect(aio?.firmware_version).toBe(904);
    expect(aio?.inverter?.info?.model).toBe("All-In-One");
    expect(aio?.inverter?.info?.battery?.nominal_capacity).toBe(52);
    expect(aio?.inverter?.connections?.batteries[0]).toMatchObject({ serial: "6568", firmware_version: 12 });
    expect(aio?.inverter?.connections?.datalog).toBeUndefined();
    expect(gateway?.inverter?.info?.model).toBe("Gateway");
    expect(gateway?.inverter?.info?.battery?.nominal_capacity).toBe(104);
    expect(gateway?.inverter?.firmware_version).toEqual({ ARM: 13, DSP: 0 });
    expect(gateway?.inverter?.connections?.datalog).toEqual({
      serial_number: "WK2315G357",
      firmware_version: 206,
      type: "GPRS",
      commission_date: "2024-05-24T00:00:00Z",
      site_id: 61435,
    });
    expect(gateway?.inverter?.connections?.batteries).toHaveLength(2);
    expect(gateway?.inverter?.connections?.meters.map((meter) => meter.serial_number)).toEqual([2075078, 2021106]);
    expect(gateway?.inverter?.flags).toEqual(["full-power-discharge-in-eco-mode", "is-controllable"]);
  },
  "predbat_doc_meter_data_latest.json": (parsed, fixture) => {
    expect(parsed).toEqual(dataOf(fixture));
    const data = parsed as MeterData;
    expect(data.today?.ac_charge).toBe(10.6);
    expect(data.total?.ac_charge).toBe(6350.8);
    expect(data.is_metered).toBe(true);
  },
  "predbat_doc_system_data_latest.json": (parsed, fixture) => {
    expect(parsed).toEqual(dataOf(fixture));
    expect((parsed as SystemData).status).toBe("Normal");
  },
};

/** Bodies that must fail, and how. */
const FAILS: Readonly<Record<string, (error: unknown) => void>> = {
  // The documentation printed this example as escaped text with a "..." in it: not JSON.
  "doc_get_inverter_inverter_presets.json": (error) => {
    expect(error).toBeInstanceOf(ResponseShapeError);
    const shape = error as ResponseShapeError;
    expect(shape.field).toBe("data");
    expect(shape.message).toContain("Get Setting Presets (GET /inverter/{inverter_serial_number}/presets)");
    expect(shape.message).toContain("expected the preset list");
    expect(shape.message).toContain("not JSON");
  },
};

describe("real responses", () => {
  let server: Server;
  let client: CloudClient;
  let body: unknown;
  const seen: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      request.resume();
      request.on("end", () => {
        response.writeHead(200, { "content-type": "application/json" });
        // A string body is text as the documentation printed it, served as is.
        response.end(typeof body === "string" ? body : JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    client = new CloudClient({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      token: "real-responses-token",
      budget: new RateBudget({ limit: 10_000, windowMs: 60_000 }),
      budgets: new RateBudgetRegistry(),
      retry: { attempts: 1 },
    });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("has all 42 bodies, each with an endpoint the client calls and a check", () => {
    expect(FIXTURES).toHaveLength(42);
    for (const fixture of FIXTURES) {
      expect(CALLS[keyOf(fixture.endpoint)], `${fixture.file}: ${fixture.endpoint}`).toBeDefined();
      expect(CHECKS[fixture.file] ?? FAILS[fixture.file], fixture.file).toBeDefined();
    }
  });

  it.each(FIXTURES.map((fixture) => [fixture.file, fixture] as const))("%s", async (_, fixture) => {
    const call = CALLS[keyOf(fixture.endpoint)];
    if (!call) throw new Error(`no client method for ${fixture.endpoint}`);
    body = fixture.response;
    seen.length = 0;
    const outcome = await call(client, fixture).then(
      (parsed) => ({ ok: true as const, parsed }),
      (error: unknown) => ({ ok: false as const, error }),
    );

    // The client asked the endpoint the body came from, once.
    const method = fixture.endpoint.slice(0, fixture.endpoint.indexOf(" "));
    expect(seen).toHaveLength(1);
    const [sentMethod, sentUrl = ""] = (seen[0] ?? "").split(" ");
    expect(sentMethod).toBe(method);
    expect(sentUrl.split("?")[0]).toMatch(pathPattern(fixture.endpoint));

    const fails = FAILS[fixture.file];
    if (fails) {
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) fails(outcome.error);
      return;
    }
    if (!outcome.ok) throw outcome.error;
    CHECKS[fixture.file]?.(outcome.parsed, fixture);
  });
});
