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
