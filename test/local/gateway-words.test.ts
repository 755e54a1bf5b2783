import { describe, expect, it } from "vitest";
import { readCapture } from "../../src/local/capture.js";
import { ChainDecoder } from "../../src/local/decode.js";
import { Registers } from "../../src/local/registers/bank.js";
import { encodeGateway } from "../../src/local/registers/encode.js";
import { decodeGateway, gatewaySwapsWords } from "../../src/local/registers/gateway.js";
import { RegisterFile } from "../../src/local/registers/register-file.js";
import { captureText } from "./captures.js";

/*
 * The gateway's 32-bit totals: high word first on the captured GAAA0014, low word first on the
 * GA00 line from GA000010 on (the public map's GatewayV2). No capture has a GA00 gateway: these
 * registers are crafted, with the firmware written as the gateway writes it (IR 1600-1603).
 */

function gatewayRegisters(firmware: string, fourth: number, totals: Record<number, [number, number]>): Registers {
  const file = new RegisterFile();
  file.text(1600, 2, firmware.slice(0, 4)).u16(1602, 0).u16(1603, fourth);
  for (const [register, [first, second]] of Object.entries(totals)) {
    file.u16(Number(register), first).u16(Number(register) + 1, second);
  }
  return new Registers(file);
}

describe("the gateway's word order, chosen by its firmware", () => {
  // 12,710.8 kWh is 127,108 tenths: 0x0001 0xF084.
  const HIGH_FIRST: [number, number] = [0x0001, 0xf084];
  const LOW_FIRST: [number, number] = [0xf084, 0x0001];

  it("GA000010 and later keep the totals low word first", () => {
    // GA000010: the digits 1 and 0 a byte each in IR 1603.
    const ir = gatewayRegisters("GA00", 0x0100, { 1641: LOW_FIRST, 1796: LOW_FIRST });
    expect(gatewaySwapsWords(ir)).toBe(true);
    expect(decodeGateway(ir)).toMatchObject({
      firmware: "GA000010",
      total_grid_import_energy: 12710.8,
      total_battery_charge_energy: 12710.8,
    });
  });

  it("GA000009 and earlier keep them high word first", () => {
    const ir = gatewayRegisters("GA00", 0x0009, { 1641: HIGH_FIRST });
    expect(gatewaySwapsWords(ir)).toBe(false);
    expect(decodeGateway(ir)).toMatchObject({ firmware: "GA000009", total_grid_import_energy: 12710.8 });
  });

  it("the captured GAAA0014 stays high word first, though its IR 1603 passes the source's test", () => {
    const gateway = new ChainDecoder()
      .acceptAll(readCapture(captureText("gatewayDay")).frames)
      .devices()
      .find((device) => device.kind === "gateway");
    expect(gateway?.state).toMatchObject({ firmware: "GAAA0014", total_grid_import_energy: 12710.8 });
    const ir = gatewayRegisters("GAAA", 0x0104, { 1641: HIGH_FIRST });
    expect(gatewaySwapsWords(ir)).toBe(false);
  });

  it("the simulator's encoder writes each firmware's order, so a GA000012 gateway round-trips", () => {
    const state = {
      firmware: "GA000012",
      total_grid_import_energy: 12710.8,
      total_solar_energy: 5087,
      total_battery_charge_energy: 8855.9,
    };
    const file = new RegisterFile();
    encodeGateway(file, state);
    expect([file.input.get(1641), file.input.get(1642)]).toEqual(LOW_FIRST);
    expect(decodeGateway(new Registers(file))).toMatchObject(state);
  });

  it.each([
    // The public map's two GA00 layouts, seven registers a serial; the captured GAAA0014's five.
    ["GA000009", [1831, 1838]],
    ["GA000010", [1841, 1848]],
    ["GAAA0014", [1841, 1846]],
  ] as const)("%s lists its All-in-Ones' serials at IR %j", (firmware, [first, second]) => {
    const file = new RegisterFile();
    encodeGateway(file, {
      firmware,
      aio_1_serial: "CH2024A001",
      aio_1_soc: 50,
      aio_2_serial: "CH2024A002",
      aio_2_soc: 60,
    });
    const ir = new Registers(file);
    expect([ir.text(first, 5), ir.text(second, 5)]).toEqual(["CH2024A001", "CH2024A002"]);
    expect(decodeGateway(ir)).toMatchObject({ aio_1_serial: "CH2024A001", aio_2_serial: "CH2024A002" });
  });
});
