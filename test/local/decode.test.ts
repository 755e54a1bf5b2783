import { describe, expect, it } from "vitest";
import { judgeBatteryBank } from "../../src/local/battery-guard.js";
import { readCapture } from "../../src/local/capture.js";
import { ChainDecoder, type DecodedDevice } from "../../src/local/decode.js";
import { buildResponse, parseFrame } from "../../src/local/frame.js";
import { type CaptureName, captureText } from "./captures.js";

const decoded = (name: CaptureName): ChainDecoder =>
  new ChainDecoder().acceptAll(readCapture(captureText(name)).frames);
const devices = (name: CaptureName): DecodedDevice[] => decoded(name).devices();
const find = (list: DecodedDevice[], kind: DecodedDevice["kind"]): DecodedDevice => {
  const device = list.find((d) => d.kind === kind);
  if (!device) throw new Error(`no ${kind} in ${JSON.stringify(list.map((d) => d.kind))}`);
  return device;
};

describe("the README's known values, decoded under the daemon's keys", () => {
  it("EMS: battery power 2511 W, the sum of its two inverters'", () => {
    const list = devices("ems60s");
    const ems = find(list, "ems");
    expect(ems.state.battery_power).toBe(2511);
    expect((ems.state.inverter_1_power as number) + (ems.state.inverter_2_power as number)).toBe(2511);
    expect(list.filter((d) => d.model === "EMS-managed inverter")).toHaveLength(2);
    // Grid and load meters at 0x01 and 0x03.
    expect(list.filter((d) => d.kind === "meter").map((d) => d.address)).toEqual(["0x01", "0x03"]);
    expect(ems.state.meter_1_status).toBe("ONLINE");
    expect(ems.state.inverter_1_status).toBe("ONLINE");
  });

  it("EMS signs: at night its batteries discharge into a small load and the rest is exported", () => {
    // The last rollup of the 60 s file: IR 2090 2511 W out of the batteries, IR 2086 677 W of load,
    // IR 2089 -1834 W; the EMS's own IR 30 (export positive on every inverter) read +1834.
    const ems = find(devices("ems60s"), "ems");
    expect(ems.state).toMatchObject({
      battery_power: 2511,
      calculated_load_power: 677,
      grid_power: 1834,
      meter_1_power: 1834,
      meter_1_type: "GRID",
      meter_3_type: "GENERATION",
    });
    // Battery out = load + export.
    expect(Math.abs(2511 - 677 - 1834)).toBeLessThan(10);
  });

  it("EMS signs: in the evening the generation meter reads positive and the surplus is exported", () => {
    const ems = find(devices("ems30"), "ems");
    const generation = ems.state.generation_power as number;
    const load = ems.state.calculated_load_power as number;
    expect(ems.state.meter_3_power).toBe(generation);
    expect(generation).toBeGreaterThan(0);
    expect(ems.state.grid_power).toBeGreaterThan(0);
    expect(ems.state.meter_1_power).toBe(ems.state.grid_power);
    expect(Math.abs(generation - load - (ems.state.grid_power as number))).toBeLessThan(30);
  });

  it("All-in-One: PV1 862 W, AC voltage 245.7 V, battery at 0x70 and 0xA0, none at 0x32", () => {
    const list = devices("aio612");
    const aio = find(list, "inverter");
    expect(aio.model).toBe("All-in-One");
    expect(aio.state.solar_array_1_power).toBe(862);
    expect(aio.state.grid_voltage).toBe(245.7);
    const addresses = list.map((d) => d.address);
    expect(addresses).toEqual(expect.arrayContaining(["0x70", "0xa0"]));
    expect(addresses).not.toContain("0x32");
  });

  it("hybrid Gen1: batteries at 0x32 and 0x33, PV energy today 19.2 and 15.8 kWh", () => {
    const hour = devices("hybrid60");
    expect(find(hour, "inverter").state.today_solar_energy).toBe(19.2);
    expect(hour.filter((d) => d.kind === "battery module").map((d) => d.address)).toEqual(["0x32", "0x33"]);
    // The packs as the cloud lists them on the inverter.
    expect(find(hour, "inverter").state).toMatchObject({
      battery_1_design_capacity: 160,
      battery_2_design_capacity: 186,
    });
    expect(find(devices("hybridPoll"), "inverter").state.today_solar_energy).toBe(15.8);
  });

  it("gateway by day: firmware GAAA0014, 2 AIOs, lifetime import 12,710.8, PV 5,087.0, battery charge 8,855.9 kWh", () => {
    const list = devices("gatewayDay");
    const gateway = find(list, "gateway");
    expect(gateway.state).toMatchObject({
      firmware: "GAAA0014",
      aio_count: 2,
      total_grid_import_energy: 12710.8,
      total_solar_energy: 5087,
      total_battery_charge_energy: 8855.9,
    });
    expect(list.filter((d) => d.model.startsWith("All-in-One"))).toHaveLength(2);
  });

  it("gateway by night: PV 0, and the two AIOs' powers add up to the gateway's (discharge positive)", () => {
    const gateway = find(devices("gatewayNight"), "gateway");
    expect(gateway.state.solar_power).toBe(0);
    expect((gateway.state.aio_1_power as number) + (gateway.state.aio_2_power as number)).toBe(
      gateway.state.battery_power,
    );
    expect(gateway.state.battery_power).toBeGreaterThan(0);
  });

  it("three-phase: the IR 1000+ banks, an HV stack of 6 modules behind a BCU, and a BAMS", () => {
    const list = devices("threePhaseDetect");
    expect(find(list, "inverter").state).toMatchObject({ status: "NORMAL", grid_frequency: expect.any(Number) });
    expect(list.filter((d) => d.model === "HV battery module (BMU)")).toHaveLength(6);
    expect(list.map((d) => d.address)).toEqual(expect.arrayContaining(["0x70", "0xa0"]));
  });

  it("HV hybrid Gen3: 3 BMU modules at 0x50-0x52 and a BCU at 0x70", () => {
    const list = devices("hvGen3");
    expect(list.filter((d) => d.model === "HV battery module (BMU)").map((d) => d.address)).toEqual([
      "0x50",
      "0x51",
      "0x52",
    ]);
    expect(find(list, "battery").address).toBe("0x70");
  });
});

describe("today's counters, from the registers each model keeps them in", () => {
  const withoutBlock = (name: CaptureName, base: number): DecodedDevice[] =>
    new ChainDecoder()
      .acceptAll(
        readCapture(captureText(name)).frames.filter(
          ({ frame }) => !(frame.kind === "response" && frame.function === 4 && frame.base === base),
        ),
      )
      .devices();

  it("three-phase: IR 1360-1413 hold PV 25.4, battery charge 9.1 and discharge 6.6 kWh", () => {
    expect(find(devices("threePhaseDetect"), "inverter").state).toMatchObject({
      today_solar_energy: 25.4,
      today_battery_charge_energy: 9.1,
      today_battery_discharge_energy: 6.6,
      today_grid_import_energy: 19.8,
      today_grid_export_energy: 21.7,
      today_ac_charge_energy: 11.1,
      today_consumption_energy: 19.4,
    });
  });

  it("HV hybrid Gen3: today's PV is its two arrays' counters, IR 17 + IR 19 = 21.1 kWh, not IR 44's 12.1", () => {
    const registers = decoded("hvGen3").registers(0x11);
    expect([registers.u16(17), registers.u16(19), registers.u16(44)]).toEqual([62, 149, 121]);
    expect(find(devices("hvGen3"), "inverter").state.today_solar_energy).toBe(21.1);
  });

  it("hybrid Gen1: today's battery discharge and charge are IR 182 and IR 183", () => {
    expect(find(devices("hybridPoll"), "inverter").state).toMatchObject({
      today_battery_charge_energy: 8.8,
      today_battery_discharge_energy: 6.5,
    });
    expect(find(devices("hybrid60"), "inverter").state).toMatchObject({
      today_battery_charge_energy: 8.4,
      today_battery_discharge_energy: 1.6,
    });
    // The captured Gen1 holds the same figures at IR 36/37: without its IR 180-239 answers they are gone.
    const state = find(withoutBlock("hybridPoll", 180), "inverter").state;
    expect(state.today_grid_import_energy).toBeDefined();
    expect(state.today_battery_charge_energy).toBeUndefined();
    expect(state.today_battery_discharge_energy).toBeUndefined();
  });

  it("hybrid Gen2: today's battery charge and discharge stay IR 36 and IR 37 (4.7 and 5.5 kWh)", () => {
    expect(find(devices("gen2"), "inverter").state).toMatchObject({
      today_battery_charge_energy: 4.7,
      today_battery_discharge_energy: 5.5,
    });
  });
});

describe("an AC-coupled unit's PV registers (GivTCP's PV_Power and PV_Energy_Today_kWh)", () => {
  // The same half hour at the site's EMS: its generation meter reads 583 W at the end, its load 489 W.
  const ems = () => find(devices("ems30"), "ems").state;

  it.each(["ac1x", "ac2x"] as const)(
    "%s: IR 17-20 read 0 while the site's PV generates; none is the site's solar",
    (name) => {
      expect(ems()).toMatchObject({ meter_3_type: "GENERATION", generation_power: 583, calculated_load_power: 489 });
      const registers = decoded(name).registers(0x11);
      expect([17, 18, 19, 20].map((register) => registers.u16(register))).toEqual([0, 0, 0, 0]);
      const state = find(devices(name), "inverter").state;
      expect(state).toMatchObject({ pv_input_power: 0, today_pv_input_energy: 0 });
      expect([state.solar_power, state.today_solar_energy]).toEqual([undefined, undefined]);
    },
  );

  it.each([
    ["ac1x", 6.3, 7.6, 0, 0],
    ["ac2x", 7.7, 9.9, 28.8, 0],
  ] as const)(
    "%s: GivTCP's load balance for it is below 0 (so it publishes 0 kWh); the daemon gives none",
    (name, out, acCharge, exported, imported) => {
      const registers = decoded(name).registers(0x11);
      const state = find(devices(name), "inverter").state;
      // GivTCP's Load_Energy_Today_kWh on a non-hybrid: inverter out (IR 44) - AC charge (IR 35) - (export - import) + its own PV.
      expect([registers.u16(44), state.today_ac_charge_energy, state.today_grid_export_energy]).toEqual([
        out * 10,
        acCharge,
        exported,
      ]);
      expect(state.today_grid_import_energy).toBe(imported);
      expect(out - acCharge - (exported - imported) + Number(state.today_pv_input_energy)).toBeLessThan(0);
      expect(state.today_consumption_energy).toBeUndefined();
    },
  );
});

describe("guards, each counted", () => {
  it("skips the LAN broadcasts, and the error responses", () => {
    expect(decoded("ac1x").skips.broadcast).toBe(10);
    expect(decoded("aio612").skips["error-response"]).toBe(1);
  });

  it("rejects impossible jumps on the battery bus in the real captures, and keeps the good banks", () => {
    const decoder = decoded("hybrid60");
    expect(decoder.skips["battery-jump"]).toBeGreaterThan(0);
    expect(decoder.warnings[0]).toMatch(/0x3[23]: rejected: /);
    const battery = decoder.devices().find((d) => d.address === "0x32");
    expect(battery?.state.soc).toBeGreaterThan(0);
  });

  it("keeps the last good registers over an all-zero block (a known dropout)", () => {
    const decoder = new ChainDecoder();
    const answer = (values: number[]) =>
      parseFrame(
        buildResponse({
          dongleSerial: "WF0000G000",
          address: 0x11,
          function: 4,
          deviceSerial: "SA0000G000",
          base: 0,
          values,
        }),
      );
    const good = Array.from({ length: 60 }, (_, i) => (i === 5 ? 2400 : 1));
    decoder.accept(answer(good));
    decoder.accept(answer(Array.from({ length: 60 }, () => 0)));
    expect(decoder.skips["zero-block"]).toBe(1);
    expect(decoder.registers(0x11).u16(5)).toBe(2400);
  });

  it("judges a bank: two impossible jumps or a changed serial reject it, one jump does not", () => {
    const bank = new Map<number, number>(Array.from({ length: 60 }, (_, i) => [60 + i, 100] as const));
    const moved = (changes: Record<number, number>) =>
      new Map([...bank, ...Object.entries(changes).map(([k, v]) => [Number(k), v] as const)]);
    expect(judgeBatteryBank(bank, moved({ 81: 400 })).accept).toBe(true);
    expect(judgeBatteryBank(bank, moved({ 76: 0, 77: 500 })).accept).toBe(false);
    expect(judgeBatteryBank(bank, moved({ 110: 0x4142 })).accept).toBe(false);
  });
});
