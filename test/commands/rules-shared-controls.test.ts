import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadDaemonRules } from "../../src/app/daemon-rules.js";
import { StartupError } from "../../src/app/errors.js";
import { runCheckCommand } from "../../src/commands/check.js";
import { loadConfig } from "../../src/config/index.js";
import { capture } from "../helpers/capture.js";

const rule = (name: string, priority: number, extra: string[] = []) => [
  `  - name: ${name}`,
  `    priority: ${priority}`,
  "    when: { price: { below: 0.3 } }",
  ...extra,
  "    do: [{ setting: 71, value: 50 }]",
];

describe("check and run on two rules that share a control", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "e2m-shared-controls-"));
    for (const key of ["CONFIG", "CLOUD_URL", "CLOUD_TOKEN", "MQTT_URL"]) vi.stubEnv(`ENERGY2MQTT_${key}`, "");
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A configuration without cloud or broker (nothing is reached) naming rules.yaml with these rules. */
  const configWith = (rules: readonly string[]): string => {
    writeFileSync(
      join(dir, "rules.yaml"),
      `${["tariffs:", "  import: { type: fixed, price: 0.2 }", "rules:", ...rules].join("\n")}\n`,
    );
    const file = join(dir, "configuration.yaml");
    writeFileSync(file, `rules: rules.yaml\nstore:\n  path: ${join(dir, "e2m.db")}\n`);
    return file;
  };
  const check = async (file: string) => {
    const out = capture();
    const err = capture();
    const code = await runCheckCommand({ config: file }, out.stream, err.stream);
    return { code, out: out.text(), err: err.text() };
  };

  it("equal priorities with no word on which wins: check and run both refuse, exit 2, with the same message", async () => {
    const file = configWith([...rule("night", 0), ...rule("boost", 0)]);
    const checked = await check(file);
    expect(checked.code).toBe(2);
    expect(checked.err).toMatch(/rules\.yaml:\d+: rules\.1\.priority: "night" and "boost" both act on setting 71/);
    const { config, file: configFile } = loadConfig(file);
    const started = loadDaemonRules(config, configFile);
    await expect(started).rejects.toBeInstanceOf(StartupError);
    await expect(started).rejects.toMatchObject({ exitCode: 2, message: checked.err.trimEnd() });
  });

  it("check says who wins each shared control before anything runs", async () => {
    const file = configWith([
      ...rule("night", 0, ["    wins_over: [boost]"]),
      ...rule("boost", 0),
      ...rule("plunge", 9),
    ]);
    const checked = await check(file);
    expect(checked.err).toBe("");
    expect(checked.code).toBe(0);
    expect(checked.out).toContain(
      [
        "rules: who wins a control two rules share:",
        "  setting 71 on the default inverter: night wins over boost (wins_over, both priority 0) whenever both act on it while a window is open",
        "  setting 71 on the default inverter: plunge wins over night (priority 9 over 0) whenever both act on it while a window is open",
        "  setting 71 on the default inverter: plunge wins over boost (priority 9 over 0) whenever both act on it while a window is open",
      ].join("\n"),
    );
  });
});
