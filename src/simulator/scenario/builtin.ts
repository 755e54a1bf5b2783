import type { ScenarioInput } from "./schema.js";

/** One house with a hybrid inverter, battery, meter, EV charger and smart device, plus an EMS site. */
export function demoScenario(): ScenarioInput {
  return {
    name: "demo",
    accounts: [
      {
        id: 1001,
        username: "demo-owner",
        first_name: "Sam",
        surname: "Solar",
        site: { id: 61435, name: "Demo House" },
        devices: [
          {
            serial: "WF2024D001",
            inverter: {
              serial: "SD2024G001",
              model: "GIV-HY5.0",
              commission_date: "2024-03-14",
              pv_kwp: 4.8,
              battery_kwh: 9.5,
            },
          },
        ],
        ems: [
          {
            serial: "EM2024E001",
            commission_date: "2024-06-01",
            inverters: [
              {
                serial: "SE2024G101",
                kind: "ac-coupled",
                model: "GIV-AC3.0",
                commission_date: "2024-06-01",
                pv_kwp: 0,
                battery_kwh: 8.2,
                flags: [],
              },
              {
                serial: "SE2024G102",
                model: "GIV-HY3.6",
                commission_date: "2024-06-01",
                pv_kwp: 3.6,
                battery_kwh: 5.2,
                flags: [],
              },
            ],
          },
        ],
        ev_chargers: [
          {
            uuid: "6b1f0c8e-2f51-4c1b-9d3a-5e7c2a9b0d11",
            serial: "EVC2024A001",
            alias: "Driveway",
            commission_date: "2024-05-02",
          },
        ],
        smart_devices: [{ uuid: "9d7e4c2a-1b3f-4e5d-8a6c-0f1e2d3c4b5a", alias: "Dishwasher", power_w: 1800 }],
      },
      { id: 1002, username: "demo-free", subscription: false, devices: [] },
      { id: 2001, username: "demo-engineer", type: "engineer", role: "SUPER_ENGINEER", children: ["demo-owner"] },
      { id: 3001, username: "demo-company", type: "company", role: "OWNER", children: ["demo-engineer", "demo-owner"] },
    ],
    actors: [
      { name: "owner", account: "demo-owner" },
      { name: "readonly", account: "demo-owner", scopes: "read" },
      { name: "service", account: "demo-owner", type: "service" },
      { name: "engineer", account: "demo-engineer" },
      { name: "company", account: "demo-company" },
      { name: "free", account: "demo-free" },
    ],
  };
}

const OWNER_ACTORS: ScenarioInput["actors"] = [
  { name: "owner", account: "owner" },
  { name: "readonly", account: "owner", scopes: "read" },
];

/** One account called `owner` with the given devices, on site 61435. */
function oneHouse(name: string, devices: Omit<ScenarioInput["accounts"][number], "id" | "username">): ScenarioInput {
  return {
    name,
    accounts: [{ id: 1001, username: "owner", site: { id: 61435, name: "Home" }, ...devices }],
    actors: OWNER_ACTORS,
  };
}

/** A single-phase hybrid with PV, battery and a meter. */
export function hybridScenario(): ScenarioInput {
  return oneHouse("hybrid", {
    devices: [
      {
        serial: "WF2024H001",
        inverter: {
          serial: "SH2024G001",
          kind: "hybrid",
          commission_date: "2024-04-02",
          pv_kwp: 5.2,
          battery_kwh: 9.5,
        },
      },
    ],
  });
}

/** An AC-coupled battery inverter beside an existing PV system, which it sees through a generation meter. */
export function acCoupledScenario(): ScenarioInput {
  return oneHouse("ac-coupled", {
    devices: [
      {
        serial: "WF2024C001",
        inverter: {
          serial: "SA2024G001",
          kind: "ac-coupled",
          commission_date: "2024-02-20",
          pv_kwp: 3.2,
          battery_kwh: 8.2,
        },
      },
    ],
  });
}

/**
 * A stand-alone All-In-One as the real listing shows one (GPRS dongle, integer firmware 904,
 * `connections: {batteries, meters: []}`), and a smart plug with no other data (`other_data: []`).
 */
export function aioScenario(): ScenarioInput {
  return oneHouse("aio", {
    devices: [
      {
        serial: "WG2024A001",
        type: "GPRS",
        firmware_version: 904,
        inverter: {
          serial: "CH2024A001",
          kind: "all-in-one",
          commission_date: "2024-08-16",
          pv_kwp: 4.5,
          battery_kwh: 13.58,
        },
      },
    ],
    smart_devices: [
      { uuid: "3c5e7a90-4b1d-4f2e-9a8c-7d6e5f4a3b2c", alias: "Heat pump plug", power_w: 2200, other_data: {} },
    ],
  });
}

/**
 * A Gateway with two All-In-Ones behind it, shaped as the real listing of such a site
 * (predbat_doc_communication_device_list.json): the gateway carries `connections.datalog`, the
 * batteries of both, two meters and is-controllable; the All-In-Ones are not controllable.
 */
export function gatewayScenario(): ScenarioInput {
  const aio = (n: number, date: string, firmware: number) => ({
    serial: `WG2024A00${n}`,
    type: "GPRS" as const,
    firmware_version: firmware,
    inverter: {
      serial: `CH2024A00${n}`,
      kind: "all-in-one" as const,
      commission_date: date,
      // 52 Ah at 307.2 V, 85% of it usable, as the real listing shows.
      battery_kwh: 13.58,
      pv_kwp: 3.6,
      flags: ["full-power-discharge-in-eco-mode"],
    },
  });
  return oneHouse("gateway", {
    gateways: [
      {
        serial: "GW2024G001",
        commission_date: "2024-05-24",
        dongle: { serial: "WK2024G001", type: "GPRS", firmware_version: 206 },
        meters: 2,
        devices: [aio(1, "2024-08-16", 904), aio(2, "2024-05-24", 206)],
      },
    ],
  });
}

/** A three-phase hybrid with a high-voltage battery. */
export function threePhaseScenario(): ScenarioInput {
  return oneHouse("three-phase", {
    devices: [
      {
        serial: "WF2024T001",
        inverter: {
          serial: "ST2024G001",
          kind: "three-phase",
          commission_date: "2024-07-01",
          pv_kwp: 8.4,
          battery_kwh: 10.2,
          annual_load_kwh: 6500,
        },
      },
    ],
  });
}

/** An EMS listed as "Plant EMS", and its two child inverters, which it controls. */
export function plantEmsScenario(): ScenarioInput {
  return oneHouse("plant-ems", {
    ems: [
      {
        serial: "EM2025E001",
        model: "Plant EMS",
        commission_date: "2025-01-15",
        meters: 2,
        inverters: [
          {
            serial: "SE2025G201",
            kind: "hybrid",
            commission_date: "2025-01-15",
            pv_kwp: 6,
            battery_kwh: 9.5,
            flags: ["full-power-discharge-in-eco-mode"],
          },
          {
            serial: "SE2025G202",
            kind: "ac-coupled",
            commission_date: "2025-01-15",
            pv_kwp: 2.4,
            battery_kwh: 8.2,
            flags: [],
          },
        ],
      },
    ],
  });
}

/** The built-in scenarios by name; `fleet:N` is built apart. */
export const BUILTIN_SCENARIOS: Readonly<Record<string, () => ScenarioInput>> = {
  demo: demoScenario,
  hybrid: hybridScenario,
  "ac-coupled": acCoupledScenario,
  aio: aioScenario,
  gateway: gatewayScenario,
  "three-phase": threePhaseScenario,
  "plant-ems": plantEmsScenario,
};

/** N inverters on one account, for scale. */
export function fleetScenario(count: number): ScenarioInput {
  if (!Number.isInteger(count) || count < 1 || count > 100_000) {
    throw new RangeError(`fleet size must be a whole number from 1 to 100000, got ${count}`);
  }
  const devices = Array.from({ length: count }, (_, i) => {
    const n = String(i + 1).padStart(5, "0");
    const month = String((i % 12) + 1).padStart(2, "0");
    return {
      serial: `WF${n}F`,
      inverter: {
        serial: `SF${n}G`,
        commission_date: `2025-${month}-01`,
        pv_kwp: 3 + (i % 5),
        battery_kwh: [5.2, 8.2, 9.5, 13.5][i % 4],
      },
    };
  });
  return {
    name: `fleet:${count}`,
    accounts: [{ id: 5001, username: "fleet-owner", devices }],
    actors: [{ name: "owner", account: "fleet-owner" }],
  };
}
