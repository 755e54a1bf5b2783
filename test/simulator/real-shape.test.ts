import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSimulator } from "../helpers/simulator.js";
import { type Allowed, compareShape, nullsAndEmpties } from "./real-shape/compare.js";
import { type Evidence, isReal, readEvidence } from "./real-shape/evidence.js";

/*
 * For every endpoint with a body in the evidence (test/fixtures/real-responses), the
 * simulator's answer over HTTP has the same keys and JSON types at every level as that body,
 * a real one preferred over a documentation example. Values may differ; arrays are compared by
 * their elements' shapes; null in the evidence means the service may send null there. The
 * differences that stay are listed below with their reason, and in docs/simulator.md.
 */

const START = Date.UTC(2025, 5, 15, 11, 0, 0);
const SCENARIOS = ["demo", "gateway", "aio", "three-phase", "plant-ems"] as const;
type ScenarioName = (typeof SCENARIOS)[number];

const INVERTER = "SD2024G001";
const EMS = "EM2024E001";
const CHARGER = "6b1f0c8e-2f51-4c1b-9d3a-5e7c2a9b0d11";
const SMART = "9d7e4c2a-1b3f-4e5d-8a6c-0f1e2d3c4b5a";

const PAGINATED =
  "the reference says the endpoint is paginated, so the answer carries links and meta; the evidence shows data only";
const ACCOUNT_FIELDS =
  "GET /account's real body (predbat_doc_account.json) and the reference have these fields; the 2022 documentation examples of the other account endpoints predate them";
const SITE_FIELDS =
  "the reference's Site has id, tz_timezone, type and products; the 2022 documentation example predates them";
const DEVICE_FIELDS =
  "the real listing (predbat_doc_communication_device_list.json) has these fields; the 2022 documentation example of one device predates them";
const POINT_FIELDS =
  "the reference's data point has status, is_metered and ac_charge, and the real meter-data body has is_metered and ac_charge; the 2022 documentation example predates them";
const CYCLE_COUNT =
  "the reference: a battery module has cycle_count in some responses; the simulated hybrids send it (the daemon shows it), the real All-In-One body has none";
const PRESET_TOP_LEVEL =
  "the reference: newer versions answer Modify Preset with 201 and success and message at the top level; the documentation example (v1.5.1) is the older form inside data";
const PLANT_NULLS =
  "an EMS or a gateway has no battery, inverter stage or PV strings of its own: those values are null, as the real service sends null where a device has nothing";
const GATEWAY_COUNTERS =
  "a gateway keeps no energy counters of its own (its All-In-Ones do): today and total are null, as the real service sends whole sections as null";

const allow = (reason: string, problem: Allowed["problem"], ...paths: string[]): Allowed[] =>
  paths.map((path) => ({ path, problem, reason }));

interface Case {
  readonly name: string;
  /** The evidence body compared with; other bodies of its endpoint only say where null or [] may be sent. */
  readonly file: string;
  readonly scenario: ScenarioName;
  readonly actor?: string;
  readonly method?: "GET" | "POST";
  readonly path: string;
  readonly body?: unknown;
  readonly cover?: boolean;
  readonly allowed?: readonly Allowed[];
}

const plantSystemNulls = allow(
  PLANT_NULLS,
  "type",
  "data.battery.temperature",
  "data.inverter.temperature",
  "data.inverter.output_voltage",
  "data.inverter.output_frequency",
  "data.inverter.eps_power",
);

const CASES: readonly Case[] = [
  {
    name: "account",
    file: "predbat_doc_account.json",
    scenario: "demo",
    path: "/account",
  },
  {
    name: "account by id",
    file: "doc_get_account_id.json",
    scenario: "demo",
    actor: "engineer",
    path: "/account/1001",
    allowed: allow(
      ACCOUNT_FIELDS,
      "extra",
      "data.first_name",
      "data.surname",
      "data.postcode",
      "data.standard_timezone",
      "data.company",
      "data.flags",
    ),
  },
  {
    name: "account search",
    file: "doc_get_account_search_account_user_account.json",
    scenario: "demo",
    actor: "engineer",
    path: "/account/search/demo-owner",
    allowed: allow(
      ACCOUNT_FIELDS,
      "extra",
      "data.first_name",
      "data.surname",
      "data.postcode",
      "data.standard_timezone",
      "data.company",
      "data.flags",
    ),
  },
  {
    name: "account children",
    file: "doc_get_account_children.json",
    scenario: "demo",
    actor: "engineer",
    path: "/account-children",
    allowed: [
      ...allow(PAGINATED, "extra", "links", "meta"),
      ...allow(
        ACCOUNT_FIELDS,
        "extra",
        "data[].first_name",
        "data[].surname",
        "data[].postcode",
        "data[].standard_timezone",
        "data[].company",
        "data[].flags",
      ),
    ],
  },
  {
    name: "account children of an account",
    file: "doc_get_account_children_account.json",
    scenario: "demo",
    actor: "company",
    path: "/account-children/2001",
    allowed: [
      ...allow(PAGINATED, "extra", "links", "meta"),
      ...allow(
        ACCOUNT_FIELDS,
        "extra",
        "data[].first_name",
        "data[].surname",
        "data[].postcode",
        "data[].standard_timezone",
        "data[].company",
        "data[].flags",
      ),
    ],
  },
  {
    name: "device listing of a gateway site (a gateway and two All-In-Ones, as the evidence)",
    file: "predbat_doc_communication_device_list.json",
    scenario: "gateway",
    path: "/communication-device",
    cover: true,
    allowed: allow(PAGINATED, "extra", "links", "meta"),
  },
  {
    name: "device listing of the demo (a hybrid, a Plant EMS and its children)",
    file: "predbat_doc_communication_device_list.json",
    scenario: "demo",
    path: "/communication-device",
    allowed: [
      ...allow(PAGINATED, "extra", "links", "meta"),
      ...allow(CYCLE_COUNT, "extra", "data[].inverter.connections.batteries[].cycle_count"),
    ],
  },
  {
    name: "device listing of an All-In-One",
    file: "predbat_doc_communication_device_list.json",
    scenario: "aio",
    path: "/communication-device",
    allowed: allow(PAGINATED, "extra", "links", "meta"),
  },
  {
    name: "one device",
    file: "doc_get_communication_device_id.json",
    scenario: "demo",
    path: "/communication-device/WF2024D001",
    allowed: [
      ...allow(
        DEVICE_FIELDS,
        "extra",
        "data.firmware_version",
        "data.site_id",
        "data.inverter.info.battery",
        "data.inverter.info.max_charge_rate",
        "data.inverter.info.max_discharge_rate",
        "data.inverter.flags",
      ),
    ],
  },
  {
    name: "fault events",
    file: "avasapollo_events.json",
    scenario: "demo",
    path: `/inverter/${INVERTER}/events?cleared=1&start=2024-03-14T00:00:00Z`,
  },
  {
    name: "data points",
    file: "doc_get_inverter_inverter_data_points_date.json",
    scenario: "demo",
    path: `/inverter/${INVERTER}/data-points/2025-06-10?pageSize=300`,
    allowed: [
      ...allow(PAGINATED, "extra", "links", "meta"),
      ...allow(
        POINT_FIELDS,
        "extra",
        "data[].status",
        "data[].is_metered",
        "data[].today.ac_charge",
        "data[].total.ac_charge",
      ),
    ],
  },
  ...(["avasapollo_system_data_latest.json", "predbat_doc_system_data_latest.json"] as const).flatMap(
    (file): Case[] => [
      {
        name: `live data of a hybrid (${file})`,
        file,
        scenario: "demo",
        path: `/inverter/${INVERTER}/system-data/latest`,
      },
      {
        name: `live data of an All-In-One (${file})`,
        file,
        scenario: "aio",
        path: "/inverter/CH2024A001/system-data/latest",
      },
      {
        name: `live data of a three-phase hybrid (${file})`,
        file,
        scenario: "three-phase",
        path: "/inverter/ST2024G001/system-data/latest",
      },
      {
        name: `live data of a Plant EMS through the inverter endpoint (${file})`,
        file,
        scenario: "plant-ems",
        path: "/inverter/EM2025E001/system-data/latest",
        allowed: plantSystemNulls,
      },
      {
        name: `live data of a gateway (${file})`,
        file,
        scenario: "gateway",
        path: "/inverter/GW2024G001/system-data/latest",
        allowed: plantSystemNulls,
      },
    ],
  ),
  {
    name: "counters of a hybrid",
    file: "predbat_doc_meter_data_latest.json",
    scenario: "demo",
    path: `/inverter/${INVERTER}/meter-data/latest`,
  },
  {
    name: "counters of a Plant EMS through the inverter endpoint",
    file: "predbat_doc_meter_data_latest.json",
    scenario: "demo",
    path: `/inverter/${EMS}/meter-data/latest`,
  },
  {
    name: "counters of a gateway",
    file: "predbat_doc_meter_data_latest.json",
    scenario: "gateway",
    path: "/inverter/GW2024G001/meter-data/latest",
    allowed: allow(GATEWAY_COUNTERS, "type", "data.today", "data.total"),
  },
  {
    name: "settings listing",
    file: "avasapollo_settings_list.json",
    scenario: "demo",
    path: `/inverter/${INVERTER}/settings`,
  },
  {
    name: "settings listing of a Plant EMS",
    file: "avasapollo_settings_list.json",
    scenario: "demo",
    path: `/inverter/${EMS}/settings`,
  },
  // Setting 24 Enable Eco Mode is a boolean, 71 Battery Reserve % Limit a number, 64 AC Charge 1 Start Time a time.
  ...(
    [
      ["bool", 24, true],
      ["int", 71, 100],
      ["time", 64, "16:00"],
    ] as const
  ).flatMap(([type, id, value]): Case[] => [
    {
      name: `read a ${type} setting`,
      file: `avasapollo_read_${type}.json`,
      scenario: "demo",
      method: "POST",
      path: `/inverter/${INVERTER}/settings/${id}/read`,
      body: { context: "shape test" },
    },
    {
      name: `write a ${type} setting`,
      file: `avasapollo_write_${type}.json`,
      scenario: "demo",
      method: "POST",
      path: `/inverter/${INVERTER}/settings/${id}/write`,
      body: { value, context: "shape test" },
    },
    {
      name: `read a ${type} setting of a Plant EMS`,
      file: `avasapollo_read_${type}.json`,
      scenario: "demo",
      method: "POST",
      path: `/inverter/${EMS.toLowerCase()}/settings/${id}/read`,
    },
  ]),
  {
    name: "modify a preset",
    file: "doc_post_inverter_inverter_presets_id.json",
    scenario: "demo",
    method: "POST",
    path: `/inverter/${INVERTER}/presets/eco-mode`,
    body: { enabled: true },
    allowed: [...allow(PRESET_TOP_LEVEL, "missing", "data"), ...allow(PRESET_TOP_LEVEL, "extra", "success", "message")],
  },
  {
    name: "sites",
    file: "doc_get_site.json",
    scenario: "demo",
    path: "/site",
    allowed: [
      ...allow(PAGINATED, "extra", "links", "meta"),
      ...allow(SITE_FIELDS, "extra", "data[].id", "data[].tz_timezone", "data[].type", "data[].products"),
    ],
  },
  {
    name: "one site",
    file: "doc_get_site_id.json",
    scenario: "demo",
    path: "/site/61435",
    allowed: allow(SITE_FIELDS, "extra", "data.id", "data.tz_timezone", "data.type", "data.products"),
  },
  {
    name: "smart devices",
    file: "doc_get_smart_device.json",
    scenario: "demo",
    path: "/smart-device",
    allowed: allow(PAGINATED, "extra", "links", "meta"),
  },
  {
    name: "smart devices with no other data",
    file: "doc_get_smart_device.json",
    scenario: "aio",
    path: "/smart-device",
    allowed: allow(PAGINATED, "extra", "links", "meta"),
  },
  { name: "one smart device", file: "doc_get_smart_device_id.json", scenario: "demo", path: `/smart-device/${SMART}` },
  {
    name: "smart device data",
    file: "doc_get_smart_device_smart_device_id_data.json",
    scenario: "demo",
    path: `/smart-device/${SMART}/data`,
    allowed: allow(PAGINATED, "extra", "links", "meta"),
  },
  {
    name: "register a smart device",
    file: "doc_post_smart_device.json",
    scenario: "demo",
    method: "POST",
    path: "/smart-device",
    body: { serial_number: "PLUG-SHAPE-1", alias: "Shape plug" },
  },
  {
    name: "add a smart device reading",
    file: "doc_post_smart_device_smart_device_uuid_data.json",
    scenario: "demo",
    method: "POST",
    path: `/smart-device/${SMART}/data`,
    body: { time: "2025-06-15T10:30:00Z", power: 498 },
  },
  {
    name: "charger commands",
    file: "predbat_comment_evc_commands.json",
    scenario: "demo",
    path: `/ev-charger/${CHARGER}/commands`,
  },
  ...(
    [
      "adjust_charge_power_limit",
      "set_plug_and_go",
      "set_schedule",
      "set_session_energy_limit",
      "unlock_connector",
    ] as const
  ).map(
    (command): Case => ({
      name: `command data of ${command.replaceAll("_", "-")}`,
      file: `predbat_comment_evc_cmd_${command}.json`,
      scenario: "demo",
      path: `/ev-charger/${CHARGER}/commands/${command.replaceAll("_", "-")}`,
    }),
  ),
];

/** Documentation examples that are wrong in the documentation itself, so nothing is compared with them. */
const EXCLUDED: Readonly<Record<string, string>> = {
  "doc_get_inverter_inverter_presets.json":
    "the documentation's example of GET .../presets is a JSON string holding an elided ('...') body, not JSON",
  "doc_get_inverter_inverter_settings.json":
    "the documentation's example of GET .../settings has data as one object; the real body (avasapollo_settings_list.json) and the reference have a list",
};

const EVIDENCE = readEvidence();
const byFile = new Map(EVIDENCE.map((evidence) => [evidence.file, evidence]));

function evidenceOf(file: string): Evidence {
  const found = byFile.get(file);
  if (!found) throw new Error(`no evidence file ${file}`);
  return found;
}

describe("the simulator's answers have the shapes of the real service's", () => {
  const sims = new Map<ScenarioName, Awaited<ReturnType<typeof startTestSimulator>>>();
  beforeAll(async () => {
    for (const scenario of SCENARIOS)
      sims.set(scenario, await startTestSimulator({ scenario, speed: 0, start: START }));
  });
  afterAll(async () => {
    for (const sim of sims.values()) await sim.stop();
  });

  async function answer(c: Case): Promise<{ status: number; body: unknown }> {
    const sim = sims.get(c.scenario);
    if (!sim) throw new Error(`no simulator for ${c.scenario}`);
    const response = await fetch(`${sim.simulator.url}${c.path}`, {
      method: c.method ?? "GET",
      headers: {
        authorization: `Bearer ${sim.simulator.tokens[c.actor ?? "owner"]}`,
        accept: "application/json",
        "content-type": "application/json",
      },
      ...(c.body === undefined ? {} : { body: JSON.stringify(c.body) }),
    });
    return { status: response.status, body: await response.json() };
  }

  it.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const evidence = evidenceOf(c.file);
    const { status, body } = await answer(c);
    expect(status, JSON.stringify(body)).toBeLessThan(300);
    const others = EVIDENCE.filter(
      (e) => e.endpoint === evidence.endpoint && e.file !== c.file && !(e.file in EXCLUDED),
    );
    const { differences, unused } = compareShape(evidence.response, body, {
      alsoSeen: nullsAndEmpties(others.map((e) => e.response)),
      ...(c.cover ? { cover: true } : {}),
      ...(c.allowed ? { allowed: c.allowed } : {}),
    });
    expect(differences).toEqual([]);
    // An allowance that excuses nothing is a difference that went away: take it off the list.
    expect(unused).toEqual([]);
  });

  it("covers every endpoint of the evidence, comparing with a real body wherever there is one", () => {
    const compared = new Set(CASES.map((c) => c.file));
    for (const evidence of EVIDENCE) {
      if (evidence.file in EXCLUDED) continue;
      const sameEndpoint = EVIDENCE.filter((e) => e.endpoint === evidence.endpoint && !(e.file in EXCLUDED));
      const preferred = sameEndpoint.filter((e) => isReal(e.file));
      const expected = preferred.length > 0 ? preferred : sameEndpoint;
      // Every preferred body of the endpoint is compared with; the others only widen null and [].
      if (expected.some((e) => e.file === evidence.file)) {
        expect(compared.has(evidence.file), `${evidence.file} (${evidence.endpoint})`).toBe(true);
      } else {
        expect(
          expected.some((e) => compared.has(e.file)),
          `${evidence.endpoint}: compared with none of ${expected.map((e) => e.file).join(", ")}`,
        ).toBe(true);
      }
    }
    expect(Object.keys(EXCLUDED).every((file) => byFile.has(file))).toBe(true);
  });
});
