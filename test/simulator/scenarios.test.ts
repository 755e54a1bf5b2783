import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildProgram } from "../../src/cli/main.js";
import { BUILTIN_SCENARIO_NAMES, loadScenario } from "../../src/simulator/scenario/load.js";
import { startTestSimulator } from "../helpers/simulator.js";

const START = Date.UTC(2025, 5, 15, 11, 0, 0);

type Json = Record<string, unknown>;
type Sim = Awaited<ReturnType<typeof startTestSimulator>>;

async function body(sim: Sim, path: string): Promise<Json> {
  const response = await fetch(`${sim.simulator.url}${path}`, {
    headers: { authorization: `Bearer ${sim.simulator.tokens.owner}` },
  });
  expect(response.status, path).toBe(200);
  return (await response.json()) as Json;
}
const data = async (sim: Sim, path: string) => (await body(sim, path)).data as Json;
const devices = async (sim: Sim) => (await body(sim, "/communication-device")).data as Json[];
const inverterOf = (device: Json | undefined) => (device?.inverter ?? {}) as Json;
const modelOf = (device: Json) => (inverterOf(device).info as Json).model;

describe("built-in scenarios, one per device kind the real service lists", () => {
  const sims = new Map<string, Sim>();
  const sim = (name: string): Sim => {
    const found = sims.get(name);
    if (!found) throw new Error(`no simulator for ${name}`);
    return found;
  };
  beforeAll(async () => {
    for (const name of ["hybrid", "ac-coupled", "aio", "gateway", "three-phase", "plant-ems"]) {
      sims.set(name, await startTestSimulator({ scenario: name, speed: 0, start: START }));
    }
  });
  afterAll(async () => {
    for (const one of sims.values()) await one.stop();
  });

  it("are all valid, and every one is named in the simulate command's help", () => {
    expect(BUILTIN_SCENARIO_NAMES).toEqual([
      "demo",
      "hybrid",
      "ac-coupled",
      "aio",
      "gateway",
      "three-phase",
      "plant-ems",
    ]);
    for (const name of BUILTIN_SCENARIO_NAMES) expect(loadScenario(name).name).toBe(name);
    const simulate = buildProgram(() => {}, "0.0.0").commands.find((command) => command.name() === "simulate");
    const help = simulate?.options.find((option) => option.long === "--scenario")?.description ?? "";
    for (const name of BUILTIN_SCENARIO_NAMES) expect(help.split(/[\s,]+/), name).toContain(name);
  });

  it("gateway: a Gateway with its datalog, meters and the batteries of two All-In-Ones, which are not controllable", async () => {
    const listed = await devices(sim("gateway"));
    expect(listed.map(modelOf)).toEqual(["All-In-One", "All-In-One", "Gateway"]);
    const [first, second, gateway] = listed as [Json, Json, Json];
    const connections = inverterOf(gateway).connections as Json;
    expect(connections.datalog).toEqual({
      serial_number: gateway.serial_number,
      firmware_version: gateway.firmware_version,
      type: gateway.type,
      commission_date: gateway.commission_date,
      site_id: gateway.site_id,
    });
    expect(gateway.firmware_version).toBe(206);
    expect(inverterOf(gateway).flags).toContain("is-controllable");
    expect((connections.meters as Json[]).length).toBe(2);
    const moduleSerials = (device: Json) =>
      ((inverterOf(device).connections as Json).batteries as Json[]).map((module) => module.serial);
    expect(moduleSerials(gateway)).toEqual([...moduleSerials(first), ...moduleSerials(second)]);
    expect((inverterOf(gateway).info as Json).battery).toEqual({
      nominal_capacity: 104,
      nominal_voltage: 307.2,
      depth_of_discharge: 0.85,
    });
    for (const aio of [first, second]) {
      expect(inverterOf(aio).flags).toEqual(["full-power-discharge-in-eco-mode"]);
      expect(typeof aio.firmware_version).toBe("number");
    }
  });

  it("gateway: live data are its All-In-Ones' sums with nulls for what it lacks, and it keeps no counters", async () => {
    const gateway = await data(sim("gateway"), "/inverter/GW2024G001/system-data/latest");
    const children = await Promise.all(
      ["CH2024A001", "CH2024A002"].map((serial) => data(sim("gateway"), `/inverter/${serial}/system-data/latest`)),
    );
    expect((gateway.solar as Json).power).toBe(children.reduce((t, c) => t + Number((c.solar as Json).power), 0));
    expect((gateway.solar as Json).power).toBeGreaterThan(0);
    expect(gateway.consumption).toBe(children.reduce((t, c) => t + Number(c.consumption), 0));
    expect(gateway.battery).toMatchObject({ temperature: null });
    expect(gateway.inverter).toMatchObject({ temperature: null, output_voltage: null, eps_power: null });
    expect(await data(sim("gateway"), "/inverter/GW2024G001/meter-data/latest")).toMatchObject({
      today: null,
      total: null,
    });
    const points = (await body(sim("gateway"), "/inverter/GW2024G001/data-points/2025-06-10?pageSize=300"))
      .data as Json[];
    expect(points.length).toBe(288);
    expect(points.every((point) => point.today === null && point.total === null)).toBe(true);
  });

  it("aio: an All-In-One as the real listing shows one, and a smart device whose empty other data is []", async () => {
    const [aio] = await devices(sim("aio"));
    expect(aio).toMatchObject({ firmware_version: 904, type: "GPRS" });
    expect(inverterOf(aio)).toMatchObject({
      info: {
        model: "All-In-One",
        battery: { nominal_capacity: 52, nominal_voltage: 307.2, depth_of_discharge: 0.85 },
        max_charge_rate: 6000,
        max_discharge_rate: 6000,
      },
      firmware_version: { ARM: 616, DSP: 616 },
      connections: {
        batteries: [
          { module_number: 1, capacity: { design: 52 }, cell_count: 96, has_usb: false, nominal_voltage: 307.2 },
        ],
        meters: [],
      },
      flags: expect.arrayContaining(["is-controllable"]),
    });
    const live = await data(sim("aio"), "/inverter/CH2024A001/system-data/latest");
    expect((live.solar as Json).arrays).toEqual([]);
    const plugs = (await body(sim("aio"), "/smart-device")).data as Json[];
    expect(plugs.map((plug) => plug.other_data)).toEqual([[]]);
  });

  it("ac-coupled and hybrid: PV seen through a generation meter has no strings, a hybrid's has", async () => {
    const ac = await data(sim("ac-coupled"), "/inverter/SA2024G001/system-data/latest");
    expect(modelOf((await devices(sim("ac-coupled")))[0] ?? {})).toBe("GIV-AC3.0");
    expect((ac.solar as Json).power).toBeGreaterThan(0);
    expect((ac.solar as Json).arrays).toEqual([]);
    const hybrid = await data(sim("hybrid"), "/inverter/SH2024G001/system-data/latest");
    expect(((hybrid.solar as Json).arrays as Json[]).length).toBe(1);
  });

  it("three-phase: a three-phase hybrid whose grid current is per phase", async () => {
    const [device] = await devices(sim("three-phase"));
    expect(modelOf(device ?? {})).toBe("GIV-3HY-10.0");
    expect((inverterOf(device).info as Json).max_charge_rate).toBe(10_000);
    const grid = (await data(sim("three-phase"), "/inverter/ST2024G001/system-data/latest")).grid as {
      voltage: number;
      current: number;
      power: number;
    };
    expect(grid.current).toBeCloseTo(Math.abs(grid.power) / grid.voltage / 3, 0);
  });

  it("plant-ems: a Plant EMS with empty connections ({batteries: [], meters: []}) and two children it controls", async () => {
    const listed = await devices(sim("plant-ems"));
    expect(listed.map((device) => inverterOf(device).serial)).toEqual(["EM2025E001", "SE2025G201", "SE2025G202"]);
    expect(inverterOf(listed[0])).toMatchObject({
      info: { model: "Plant EMS" },
      connections: { batteries: [], meters: [] },
    });
    for (const child of listed.slice(1)) expect(inverterOf(child).flags).not.toContain("is-controllable");
    const ems = await data(sim("plant-ems"), "/ems/EM2025E001/system-data/latest");
    expect((ems.inverters as Json[]).map((row) => row.serial_number)).toEqual(["SE2025G201", "SE2025G202"]);
  });

  it("energy2mqtt simulate --scenario gateway serves the scenario", async () => {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "test/helpers/cli-entry.ts",
        "simulate",
        "--scenario",
        "gateway",
        "--port",
        "0",
        "--json",
        "--start",
        "2026-11-16T12:00:00Z",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once("line", resolve);
        child.once("exit", (code) => reject(new Error(`simulate exited with ${code}`)));
      });
      const { url, tokens } = JSON.parse(line) as { url: string; tokens: Record<string, string> };
      const response = await fetch(`${url}/communication-device`, {
        headers: { authorization: `Bearer ${tokens.owner}` },
      });
      const listed = ((await response.json()) as { data: Json[] }).data;
      expect(listed.map(modelOf)).toEqual(["All-In-One", "All-In-One", "Gateway"]);
    } finally {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
  });
});

describe("scenario files", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "e2m-scenario-"));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const file = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it("keep their old form valid, with kind, model and phases taken by default", () => {
    const scenario = loadScenario(
      file(
        "old.yaml",
        [
          "accounts:",
          "  - id: 1",
          "    username: alex",
          "    devices:",
          "      - serial: WF0000A001",
          "        inverter: { serial: SA0000A001, model: GIV-HY5.0, commission_date: 2024-03-14 }",
          "    ems:",
          "      - serial: EM0000E001",
          "        commission_date: 2024-06-01",
          "        inverters: [{ serial: SE0000G101, commission_date: 2024-06-01, flags: [] }]",
          "actors: [{ name: alex, account: alex }]",
        ].join("\n"),
      ),
    );
    const [account] = scenario.accounts;
    expect(account?.devices[0]).toMatchObject({
      firmware_version: 904,
      inverter: { kind: "hybrid", model: "GIV-HY5.0", pv_kwp: 4.2, max_power_w: 5000, phases: 1 },
    });
    expect(account?.ems[0]).toMatchObject({ model: "Plant EMS", flags: ["is-controllable"] });
    expect(account?.gateways).toEqual([]);
  });

  it("take a kind's defaults, and refuse an unknown kind naming the field", () => {
    const scenario = loadScenario(
      file(
        "kinds.yaml",
        [
          "accounts:",
          "  - id: 1",
          "    username: alex",
          "    devices:",
          "      - { serial: WF0000A001, inverter: { serial: SA0000A001, kind: all-in-one, commission_date: 2024-03-14 } }",
          "      - { serial: WF0000A002, inverter: { serial: SA0000A002, kind: three-phase, commission_date: 2024-03-14 } }",
          "actors: [{ name: alex, account: alex }]",
        ].join("\n"),
      ),
    );
    const [aio, threePhase] = scenario.accounts[0]?.devices ?? [];
    expect(aio?.inverter).toMatchObject({ model: "All-In-One", pv_kwp: 0, max_power_w: 6000, phases: 1 });
    expect(threePhase?.inverter).toMatchObject({ model: "GIV-3HY-10.0", phases: 3 });
    const bad = file(
      "bad.yaml",
      [
        "accounts:",
        "  - id: 1",
        "    username: alex",
        "    devices: [{ serial: WF0000A001, inverter: { serial: SA0000A001, kind: windmill, commission_date: 2024-03-14 } }]",
        "actors: [{ name: alex, account: alex }]",
      ].join("\n"),
    );
    expect(() => loadScenario(bad)).toThrow(/accounts\.0\.devices\.0\.inverter\.kind/);
  });

  it("refuse a serial used twice, counting gateways and their dongles", () => {
    const twice = file(
      "twice.yaml",
      [
        "accounts:",
        "  - id: 1",
        "    username: alex",
        "    gateways:",
        "      - serial: GW0000G001",
        "        commission_date: 2024-05-24",
        "        dongle: { serial: WK0000G001 }",
        "        devices: [{ serial: WK0000G001, inverter: { serial: CH0000A001, kind: all-in-one, commission_date: 2024-05-24 } }]",
        "actors: [{ name: alex, account: alex }]",
      ].join("\n"),
    );
    expect(() => loadScenario(twice)).toThrow(/serial "WK0000G001" is used twice/);
  });
});
