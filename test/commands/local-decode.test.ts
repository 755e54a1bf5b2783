import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.js";
import { runLocalDecodeCommand } from "../../src/commands/local-decode.js";
import { capture } from "../helpers/capture.js";
import { CAPTURE_FILES, CAPTURES } from "../local/captures.js";

const path = (name: keyof typeof CAPTURE_FILES): string => join(CAPTURES, CAPTURE_FILES[name]);
const dir = mkdtempSync(join(tmpdir(), "e2m-local-decode-"));

interface Printed {
  file: string;
  frames: Record<string, number>;
  skipped: Record<string, number>;
  devices: { serial: string; model: string; kind: string; address: string; state: Record<string, unknown> }[];
}

async function decodeJson(...files: string[]): Promise<Printed[]> {
  const out = capture();
  const err = capture();
  expect(await runLocalDecodeCommand({ files, json: true }, out.stream, err.stream)).toBe(0);
  expect(err.text()).toBe("");
  return out
    .text()
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Printed);
}

describe("energy2mqtt local decode", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("--json prints one object: the frames by kind and the devices with serial, model, address and state", async () => {
    const [ems] = await decodeJson(path("ems60s"));
    expect(ems?.frames).toEqual({
      heartbeat: 2,
      request: 0,
      response: 25,
      error_response: 0,
      crc_failure: 0,
      broadcast: 0,
      unreadable_line: 0,
    });
    expect(ems?.devices[0]).toMatchObject({ serial: "EMS2522000", model: "EMS", address: "0x11" });
    expect(ems?.devices[0]?.state).toMatchObject({ battery_power: 2511, status: "NORMAL" });
  });

  it("reproduces the README's values across files in both line formats, one line a file", async () => {
    const printed = await decodeJson(path("aio612"), path("gatewayDay"), path("hybrid60"), path("threePhaseHass"));
    expect(printed.map((p) => p.devices[0]?.model)).toEqual([
      "All-in-One",
      "Gateway",
      "Hybrid Gen1",
      "Three-phase hybrid",
    ]);
    const [aio, gateway, hybrid, threePhase] = printed;
    expect(aio?.devices[0]?.state).toMatchObject({ solar_array_1_power: 862, grid_voltage: 245.7 });
    expect(aio?.frames).toMatchObject({ error_response: 1, crc_failure: 1 });
    expect(gateway?.devices[0]?.state).toMatchObject({ firmware: "GAAA0014", total_grid_import_energy: 12710.8 });
    expect(hybrid?.devices[0]?.state.today_solar_energy).toBe(19.2);
    expect(hybrid?.skipped["battery-jump"]).toBeGreaterThan(0);
    expect(threePhase?.frames.request).toBe(92);
  });

  it("prints a readable summary per file through the CLI, and counts the stray line", async () => {
    let out = "";
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    });
    expect(await main(["local", "decode", path("threePhase10")])).toBe(0);
    expect(out).toContain("unreadable_line 1");
    expect(out).toMatch(/inverter TC2337G000 \(Three-phase hybrid\) at 0x11\n/);
    expect(out).toMatch(/^ {4}battery_soc: \d+$/m);
  });

  it("a missing file or one without frames: a clear error and exit 2", async () => {
    const notes = join(dir, "notes.txt");
    writeFileSync(notes, "just some notes\nrx 00\n");
    for (const file of [join(dir, "absent.log"), notes]) {
      const out = capture();
      const err = capture();
      expect(await runLocalDecodeCommand({ files: [file] }, out.stream, err.stream)).toBe(2);
      expect(err.text()).toMatch(/cannot read the capture|no dongle frames/);
      expect(out.text()).toBe("");
    }
  });
});
