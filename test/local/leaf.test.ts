import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

// The project's biome.json on a tiny tree: local/ is a leaf that may import time/ only.
const ROOT = join(import.meta.dirname, "../..");
let dir: string | undefined;

function lint(files: Readonly<Record<string, string>>): { status: number | null; output: string } {
  dir = mkdtempSync(join(tmpdir(), "e2m-local-leaf-"));
  const config = JSON.parse(readFileSync(join(ROOT, "biome.json"), "utf8")) as Record<string, unknown>;
  delete config.$schema;
  writeFileSync(join(dir, "biome.json"), JSON.stringify(config));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const run = spawnSync(join(ROOT, "node_modules/.bin/biome"), ["lint", "--colors=off", "src"], {
    cwd: dir,
    encoding: "utf8",
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("local/ is a leaf", () => {
  it("refuses local/ importing telemetry/, naming the arrow", () => {
    const result = lint({
      "src/telemetry/fetched.ts": "export const fetched = 1;\n",
      "src/local/decode.ts": 'import { fetched } from "../telemetry/fetched.js";\n\nexport const decoded = fetched;\n',
    });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain("local/ may not import telemetry/");
  });

  it("lets local/ import time/", () => {
    const result = lint({
      "src/time/index.ts": "export const clock = 1;\n",
      "src/local/session.ts": 'import { clock } from "../time/index.js";\n\nexport const session = clock;\n',
    });
    expect(result.output).not.toContain("may not import");
    expect(result.status).toBe(0);
  });
});
