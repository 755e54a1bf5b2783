import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runCheckCommand } from "../../src/commands/check.js";
import { capture } from "../helpers/capture.js";

const EXAMPLE = new URL("../../config/rules.example.yaml", import.meta.url).pathname;

/** A configuration without cloud or broker, so check only reads files; rules.yaml beside it. */
function setup(rules: string | undefined): string {
  const dir = mkdtempSync(join(tmpdir(), "e2m-check-rules-"));
  const config = join(dir, "configuration.yaml");
  writeFileSync(config, `log:\n  level: error\n${rules === undefined ? "" : "rules: rules.yaml\n"}`);
  if (rules !== undefined) writeFileSync(join(dir, "rules.yaml"), rules);
  return config;
}

async function check(config: string) {
  const out = capture();
  const err = capture();
  const code = await runCheckCommand({ config }, out.stream, err.stream);
  return { code, out: out.text(), err: err.text() };
}

describe("energy2mqtt check with rules", () => {
  beforeEach(() => {
    for (const key of ["CONFIG", "CLOUD_URL", "CLOUD_TOKEN", "MQTT_URL", "RULES"]) vi.stubEnv(`ENERGY2MQTT_${key}`, "");
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("accepts config/rules.example.yaml, named relative to the configuration", async () => {
    const config = setup("");
    copyFileSync(EXAMPLE, join(config, "..", "rules.yaml"));
    const result = await check(config);
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    expect(result.out).toContain(`rules: ${join(config, "..", "rules.yaml")} reads as 9 rule(s)`);
    expect(result.out).not.toContain("is valid (");
  });

  it("refuses a bad rules file with its file and line, exit 2", async () => {
    const config = setup(
      ["rules:", "  - name: morning", '    when: { cron: "0 25 * * *" }', "    do: [{ snapshot: take }]"].join("\n"),
    );
    const result = await check(config);
    expect(result.code).toBe(2);
    expect(result.err).toContain(
      `${join(config, "..", "rules.yaml")}:3: rules.0.when.cron: "0 25 * * *" is not a cron expression`,
    );
  });

  it("says when the named rules file is missing", async () => {
    const config = setup(undefined);
    writeFileSync(config, "rules: nowhere.yaml\n");
    const result = await check(config);
    expect(result.code).toBe(2);
    expect(result.err).toContain(`${join(config, "..", "nowhere.yaml")}: file not found`);
  });
});
