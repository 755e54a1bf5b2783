import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { runExportCommand } from "../../src/commands/export.js";
import { flattenRecord, type HistoryRecord, openStore } from "../../src/store/index.js";
import { capture } from "../helpers/capture.js";
import { mountSmallDisk } from "../helpers/full-disk.js";
import { CHARGER, points, SERIAL, T0 } from "../store/helpers/history-records.js";
import { tempDir } from "../store/helpers/temp-dir.js";

const dir = tempDir("e2m-export-");
const storePath = dir.path("data/history.db");
const config = dir.path("configuration.yaml");
const written = points(20);
const flows: HistoryRecord[] = [
  {
    kind: "flow.half_hour",
    device: SERIAL,
    at: T0,
    key: "",
    data: { "0": 0.12, "1": 0, "2": 0, "3": 0.3, "4": 0, "5": 0.06, "6": 0 },
  },
];
const meter: HistoryRecord[] = [
  { kind: "ev.meter", device: CHARGER, at: T0, key: "1", data: { "4": 1200.5, "13": 7100, "21": 239.9 } },
];
const events: HistoryRecord[] = [
  { kind: "inverter.event", device: SERIAL, at: T0, key: 'Fault, "quoted"', data: { end_time: null } },
];

beforeAll(() => {
  const store = openStore(storePath);
  store.history.write([...written, ...flows, ...meter, ...events]);
  store.close();
  writeFileSync(config, `store:\n  path: ${storePath}\n`);
});
afterAll(() => dir.remove());
beforeEach(() => {
  for (const key of ["CONFIG", "STORE_PATH"]) vi.stubEnv(`ENERGY2MQTT_${key}`, "");
});
afterEach(() => vi.unstubAllEnvs());

async function exported(options: Record<string, string>) {
  const out = capture();
  const err = capture();
  const code = await runExportCommand({ config, ...options }, out.stream, err.stream);
  return { code, out: out.text(), err: err.text() };
}

/** RFC 4180 fields: quoted ones may hold commas, quotes (doubled) and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (!quoted && c === ",") {
      row.push(field);
      field = "";
    } else if (!quoted && c === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else {
      field += c;
    }
  }
  return rows;
}

const asText = (value: unknown) => (value === null || value === undefined ? "" : String(value));

describe("energy2mqtt export", () => {
  it("writes CSV with every column named with its unit, and reads back as written", async () => {
    const { code, out } = await exported({ kind: "inverter.point" });
    expect(code).toBe(0);
    const [header, ...rows] = parseCsv(out);
    expect(header?.slice(0, 6)).toEqual([
      "time",
      "device",
      "status",
      "power.solar.power (W)",
      "power.solar.arrays.1.array",
      "power.solar.arrays.1.voltage (V)",
    ]);
    expect(header).toContain("today.grid.import (kWh)");
    expect(header).toContain("total.consumption (kWh)");
    expect(header).toContain("power.grid.frequency (Hz)");
    expect(header).toContain("power.battery.percent (%)");
    expect(header).toContain("power.inverter.temperature (°C)");
    expect(rows).toHaveLength(written.length);
    rows.forEach((row, i) => {
      const record = written[i] as HistoryRecord;
      expect(Date.parse(row[0] ?? "")).toBe(record.at);
      expect(Object.fromEntries((header ?? []).map((name, j) => [name, row[j]]))).toEqual(
        Object.fromEntries([...flattenRecord(record)].map(([name, value]) => [name, asText(value)])),
      );
    });
  });

  it("writes JSON (one array of objects) with the same names and typed values, to a file", async () => {
    const file = dir.path("points.json");
    const { code, err } = await exported({
      kind: "inverter.point",
      format: "json",
      out: file,
      from: "2025-06-01",
      to: "2025-06-01",
    });
    expect(code).toBe(0);
    expect(err).toContain(`exported 20 inverter.point record(s) to ${file}`);
    // The house's history is its owner's business.
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const parsed = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>[];
    expect(parsed).toEqual(written.map((record) => Object.fromEntries(flattenRecord(record))));
    expect(parsed[3]).toMatchObject({
      "power.solar.power (W)": 103,
      "today.grid.import (kWh)": 0.06,
      is_metered: true,
    });
  });

  it("names flow types and charger measurands, and quotes a key with a comma", async () => {
    const flow = parseCsv((await exported({ kind: "flow.half_hour" })).out);
    expect(flow[0]).toEqual([
      "time",
      "device",
      "pv_to_home (kWh)",
      "pv_to_battery (kWh)",
      "pv_to_grid (kWh)",
      "grid_to_home (kWh)",
      "grid_to_battery (kWh)",
      "battery_to_home (kWh)",
      "battery_to_grid (kWh)",
    ]);
    expect(flow[1]).toEqual(["2025-06-01T00:00:00.000Z", SERIAL, "0.12", "0", "0", "0.3", "0", "0.06", "0"]);
    const ev = parseCsv((await exported({ kind: "ev.meter", device: CHARGER })).out);
    expect(ev[0]).toEqual([
      "time",
      "device",
      "meter",
      "Energy.Active.Import.Register (kWh)",
      "Power.Active.Import (W)",
      "Voltage (V)",
    ]);
    const event = parseCsv((await exported({ kind: "inverter.event" })).out);
    expect(event[1]?.[2]).toBe('Fault, "quoted"');
  });

  it("narrows to a time range: --to DAY includes that day, a time with a zone is exact", async () => {
    const part = parseCsv(
      (await exported({ kind: "inverter.point", from: "2025-06-01T00:10:00Z", to: "2025-06-01T00:30:00Z" })).out,
    );
    expect(part.slice(1).map((row) => row[0])).toEqual([
      "2025-06-01T00:10:00.000Z",
      "2025-06-01T00:15:00.000Z",
      "2025-06-01T00:20:00.000Z",
      "2025-06-01T00:25:00.000Z",
    ]);
    const none = await exported({ kind: "inverter.point", to: "2025-05-31" });
    expect(none.out).toBe("time,device\n");
    expect(none.err).toContain("the store holds no inverter.point records before 2025-06-01T00:00:00.000Z");
  });

  it("refuses a bad kind, format or date with exit 2 and the allowed values", async () => {
    const kind = await exported({ kind: "inverter" });
    expect(kind.code).toBe(2);
    expect(kind.err).toContain('unknown --kind "inverter": use one of inverter.point, inverter.live,');
    expect(kind.err).toContain("battery.module");
    const format = await exported({ kind: "ems", format: "xml" });
    expect(format).toMatchObject({ code: 2, err: 'unknown --format "xml": use one of csv, json\n' });
    const from = await exported({ kind: "ems", from: "yesterday" });
    expect(from.code).toBe(2);
    expect(from.err).toContain('--from "yesterday" is not a date: use YYYY-MM-DD');
    expect((await exported({ kind: "ems", from: "2025-02-30" })).code).toBe(2);
    const missing = await runExportCommand({ config }, capture().stream, capture().stream);
    expect(missing).toBe(2);
  });

  it("says so, exit 1, when the configured store does not exist", async () => {
    const other = dir.path("other.yaml");
    writeFileSync(other, `store:\n  path: ${dir.path("missing/none.db")}\n`);
    const err = capture();
    expect(await runExportCommand({ kind: "ems", config: other }, capture().stream, err.stream)).toBe(1);
    expect(err.text()).toContain("there is no store at");
  });

  it("on a full disk leaves the earlier file whole and no partial one, and says what to do instead of ENOSPC", async () => {
    const disk = mountSmallDisk(64);
    // A stand-in would not show what a real full disk does: no mount, no test.
    if (!disk) throw new Error("this test needs a real tmpfs: run it as root (mount -t tmpfs must be allowed)");
    try {
      const file = join(disk.dir, "points.csv");
      writeFileSync(file, "yesterday's export\n");
      disk.fill();
      const { code, err } = await exported({ kind: "inverter.point", out: file });
      expect(code).toBe(1);
      expect(err).toBe(
        `not exported: the disk holding ${file} is full; ${file} was not written (an earlier file there is left as it was). Free some space there, or choose another --out on a disk with room\n`,
      );
      expect(err).not.toContain("ENOSPC");
      expect(readFileSync(file, "utf8")).toBe("yesterday's export\n");
      expect(readdirSync(disk.dir).sort()).toEqual(["filler", "points.csv"]);

      disk.free();
      expect((await exported({ kind: "inverter.point", out: file })).code).toBe(0);
      expect(readFileSync(file, "utf8").split("\n")).toHaveLength(written.length + 2);
      expect(readdirSync(disk.dir)).toEqual(["points.csv"]);
    } finally {
      disk.unmount();
    }
  });
});
