import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type CloudClient, RateBudget } from "../../src/cloud/index.js";
import { MEASURANDS, type Measurand } from "../../src/cloud/schemas/ev-charger.js";
import { demoScenario } from "../../src/simulator/scenario/builtin.js";
import { ALL_SCOPES, scenarioSchema } from "../../src/simulator/scenario/schema.js";
import { type ArchiveKind, archiveAccount } from "../../src/sources/cloud/index.js";
import { cloudHistory } from "../../src/sources/index.js";
import type { HistoryKind, Store } from "../../src/store/index.js";
import { dayStartMs } from "../../src/time/local-days.js";
import { startTestSimulator } from "../helpers/simulator.js";
import { tempStore } from "./helpers.js";

const START = Date.UTC(2025, 2, 20, 12, 0, 0);
const FROM = "2025-03-16";
const TZ = "Europe/London";
const INVERTERS = ["SD2024G001", "SE2024G101", "SE2024G102"];
const CHARGER = "6b1f0c8e-2f51-4c1b-9d3a-5e7c2a9b0d11";
const SMART = "9d7e4c2a-1b3f-4e5d-8a6c-0f1e2d3c4b5a";
const DAYS = ["2025-03-16", "2025-03-17", "2025-03-18", "2025-03-19", "2025-03-20"];

/** The demo house plus a token without api:ev-charger:data. */
function scenario() {
  const input = demoScenario();
  return scenarioSchema.parse({
    ...input,
    actors: [
      ...input.actors,
      { name: "no-ev-data", account: "demo-owner", scopes: ALL_SCOPES.filter((s) => s !== "api:ev-charger:data") },
    ],
  });
}

describe("archiveAccount against the simulator", () => {
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  const cleanups: (() => void)[] = [];

  beforeAll(async () => {
    sim = await startTestSimulator({ speed: 0, start: START, scenario: scenario(), requestsPerMinute: 100_000 });
  });
  afterAll(async () => {
    await sim.stop();
  });
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  /** A client that counts requests by endpoint name. */
  const countingClient = (actor = "owner") => {
    const calls = new Map<string, number>();
    const client = sim.clientFor(actor, {
      budget: new RateBudget({ limit: 100_000, windowMs: 60_000 }),
      onRequest: (event) => calls.set(event.endpoint, (calls.get(event.endpoint) ?? 0) + 1),
    });
    return { client, calls };
  };
  const newStore = (): Store => {
    const temp = tempStore("e2m-archive-");
    cleanups.push(temp.cleanup);
    return temp.store;
  };
  const now = () => sim.simulator.clock.now();
  const count = (store: Store, kind: HistoryKind, device: string) => [...store.history.query({ kind, device })].length;

  /** What the simulator serves for the same span, asked directly. */
  async function expected(client: CloudClient) {
    const start = dayStartMs(FROM, TZ);
    const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;
    const out = new Map<string, number>();
    for (const serial of INVERTERS) {
      let points = 0;
      for (const day of DAYS)
        points += (await client.inverterData.dataPoints(serial, day, { pageSize: 1000 }).all()).length;
      out.set(`inverter.point ${serial}`, points);
      for (const grouping of [0, 1] as const) {
        const flows = await client.energyFlows.flows(serial, {
          start_time: `${FROM} 00:00:00`,
          end_time: "2025-03-21 00:00:00",
          grouping,
        });
        out.set(`${grouping === 0 ? "flow.half_hour" : "flow.day"} ${serial}`, flows.length);
      }
      const events = await client.inverterData
        .events(serial, { start: iso(start), end: iso(now()), cleared: true }, { pageSize: 1000 })
        .all();
      out.set(`inverter.event ${serial}`, new Set(events.map((e) => `${e.event}@${e.start_time}`)).size);
    }
    const sessions = await client.evChargers
      .chargingSessions(CHARGER, { start_time: iso(start), end_time: iso(now()) }, { pageSize: 1000 })
      .all();
    out.set(`ev.session ${CHARGER}`, sessions.length);
    const meter = await client.evChargers
      .meterData(
        CHARGER,
        {
          start_time: iso(start),
          end_time: iso(now()),
          measurands: Object.keys(MEASURANDS).map(Number) as Measurand[],
          meter_ids: [0],
        },
        { pageSize: 5000 },
      )
      .all();
    out.set(`ev.meter ${CHARGER}`, meter.length);
    const smart = await client.smartDevices.data(SMART, { pageSize: 5000 }).all();
    out.set(`smart.data ${SMART}`, smart.filter((p) => Date.parse(p.time) >= start).length);
    return out;
  }

  it("copies every kind, with the counts the simulator serves, and commits complete days", async () => {
    const store = newStore();
    const { client } = countingClient();
    const report = await archiveAccount({
      source: cloudHistory(client),
      history: store.history,
      from: FROM,
      clock: sim.simulator.clock,
    });
    expect(report.failures).toEqual([]);
    expect(report.interrupted).toBe(false);

    const want = await expected(client);
    for (const [label, n] of want) {
      const [kind, device] = label.split(" ") as [HistoryKind, string];
      expect(count(store, kind, device), label).toBe(n);
    }
    // Busy kinds have data every day; the quiet ones (events, sessions) may not.
    for (const label of ["inverter.point SD2024G001", "flow.half_hour SD2024G001", `ev.meter ${CHARGER}`]) {
      expect(want.get(label), label).toBeGreaterThan(0);
    }
    // Complete: the days that had ended; today is read but not complete.
    for (const serial of INVERTERS) {
      expect([...store.history.completeDays("inverter.point", serial)].sort()).toEqual(DAYS.slice(0, 4));
    }
    expect(store.history.completeDays("ev.meter", CHARGER).has("2025-03-20")).toBe(false);
    const kinds = [...report.kinds.keys()].sort();
    expect(kinds).toEqual(
      ["ev.meter", "ev.session", "flow.day", "flow.half_hour", "inverter.event", "inverter.point", "smart.data"].sort(),
    );
  });

  it("makes no requests for complete days on a second run, and adds no duplicates", async () => {
    const store = newStore();
    const first = countingClient();
    await archiveAccount({
      source: cloudHistory(first.client),
      history: store.history,
      from: FROM,
      clock: sim.simulator.clock,
    });
    const before = new Map(
      (["inverter.point", "flow.half_hour", "ev.meter", "smart.data"] as const).map((kind) => [
        kind,
        store.history
          .summary()
          .filter((row) => row.kind === kind)
          .reduce((sum, row) => sum + row.count, 0),
      ]),
    );

    const second = countingClient();
    const report = await archiveAccount({
      source: cloudHistory(second.client),
      history: store.history,
      from: FROM,
      clock: sim.simulator.clock,
    });
    // Only today is read again: one data-points request per inverter, one meter-data request.
    expect(second.calls.get("Get Inverter Data Points")).toBe(INVERTERS.length);
    expect(second.calls.get("Get Charger Meter Data")).toBe(1);
    expect(second.calls.get("Get Energy Flows")).toBe(INVERTERS.length * 2);
    expect(second.calls.get("Get Inverter Events")).toBe(INVERTERS.length);
    expect(second.calls.get("Get Charging Sessions")).toBe(1);
    expect(first.calls.get("Get Inverter Data Points")).toBe(INVERTERS.length * DAYS.length);
    for (const [kind, n] of before) {
      const after = store.history
        .summary()
        .filter((row) => row.kind === kind)
        .reduce((sum, row) => sum + row.count, 0);
      expect(after, kind).toBe(n);
    }
    for (const totals of report.kinds.values()) expect(totals.inserted).toBe(0);
  });

  it("reports a kind the token may not read (403) and archives the rest", async () => {
    const store = newStore();
    const { client } = countingClient("no-ev-data");
    const report = await archiveAccount({
      source: cloudHistory(client),
      history: store.history,
      from: FROM,
      clock: sim.simulator.clock,
    });
    expect(report.failures).toEqual([]);
    const denied = report.missing.filter((m) => m.reason === "not allowed (403)").map((m) => m.kind);
    expect(denied.sort()).toEqual(["ev.meter", "ev.session"]);
    expect(report.missing.find((m) => m.kind === "ev.meter")?.message).toContain("api:ev-charger:data");
    expect(count(store, "ev.meter", CHARGER)).toBe(0);
    expect(count(store, "inverter.point", "SD2024G001")).toBeGreaterThan(1000);
    expect(count(store, "smart.data", SMART)).toBeGreaterThan(0);
    expect(store.history.completeDays("flow.day", "SE2024G102").size).toBe(4);
  });

  it("copies only the kinds asked for, within --from and --to", async () => {
    const store = newStore();
    const { client, calls } = countingClient();
    const only: ArchiveKind[] = ["flow.day", "smart.data"];
    await archiveAccount({
      source: cloudHistory(client),
      history: store.history,
      from: "2025-03-17",
      to: "2025-03-18",
      kinds: only,
      clock: sim.simulator.clock,
    });
    expect(calls.get("Get Inverter Data Points")).toBeUndefined();
    expect(calls.get("Get Charger Meter Data")).toBeUndefined();
    const rows = [...store.history.query({ kind: "flow.day", device: "SD2024G001" })];
    expect(rows.map((row) => row.at)).toEqual([dayStartMs("2025-03-17", TZ), dayStartMs("2025-03-18", TZ)]);
    const smart = [...store.history.query({ kind: "smart.data", device: SMART })];
    expect(smart.length).toBe(96);
    expect(smart.every((row) => row.at >= dayStartMs("2025-03-17", TZ) && row.at < dayStartMs("2025-03-19", TZ))).toBe(
      true,
    );
  });
});
