import { writeFileSync } from "node:fs";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runHistoryCommand } from "../../src/commands/history.js";
import { openStore } from "../../src/store/index.js";
import { capture } from "../helpers/capture.js";
import { CHARGER, points, SERIAL, T0 } from "../store/helpers/history-records.js";
import { tempDir } from "../store/helpers/temp-dir.js";

const dir = tempDir("e2m-history-");
afterAll(() => dir.remove());
beforeEach(() => {
  for (const key of ["CONFIG", "STORE_PATH"]) vi.stubEnv(`ENERGY2MQTT_${key}`, "");
});
afterEach(() => vi.unstubAllEnvs());

function configFor(name: string): { config: string; path: string } {
  const path = dir.path(`${name}.db`);
  const config = dir.path(`${name}.yaml`);
  writeFileSync(config, `store:\n  path: ${path}\n`);
  return { config, path };
}

describe("energy2mqtt history", () => {
  it("prints first, last, count and gaps per device and kind", async () => {
    const { config, path } = configFor("filled");
    const store = openStore(path);
    store.history.write(points(288).filter((_, i) => i < 50 || i > 60));
    store.history.write([{ kind: "ev.session", device: CHARGER, at: T0, key: "", data: { meter_start: 1 } }]);
    store.close();
    const out = capture();
    expect(await runHistoryCommand({ config }, out.stream, capture().stream)).toBe(0);
    expect(out.text()).toBe(
      [
        path,
        "device                                kind            first (UTC)       last (UTC)        count  gaps",
        `${CHARGER}  ev.session      2025-06-01 00:00  2025-06-01 00:00      1     -`,
        `${SERIAL}                            inverter.point  2025-06-01 00:00  2025-06-01 23:55    277     1`,
        "",
      ].join("\n"),
    );
  });

  it("says when the store holds nothing yet, and when there is no store", async () => {
    const empty = configFor("empty");
    openStore(empty.path).close();
    const out = capture();
    expect(await runHistoryCommand({ config: empty.config }, out.stream, capture().stream)).toBe(0);
    expect(out.text()).toBe(`${empty.path} holds no history yet\n`);
    const err = capture();
    expect(await runHistoryCommand({ config: configFor("absent").config }, capture().stream, err.stream)).toBe(1);
    expect(err.text()).toContain("there is no store at");
  });

  it("exits 2 on a bad configuration", async () => {
    const config = dir.path("bad.yaml");
    writeFileSync(config, "store:\n  retention:\n    inverter.point:\n      keep: forever\n");
    const err = capture();
    expect(await runHistoryCommand({ config }, capture().stream, err.stream)).toBe(2);
    expect(err.text()).toContain("keep");
  });
});
