import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

/**
 * The project's own biome.json, run by the project's own Biome on a small tree of files: the
 * linter must refuse a forbidden arrow and a cycle, and pass an allowed import.
 */
const ROOT = join(import.meta.dirname, "../..");
const BIOME = join(ROOT, "node_modules/.bin/biome");
let dir: string | undefined;

function lint(files: Readonly<Record<string, string>>): { status: number | null; output: string } {
  dir = mkdtempSync(join(tmpdir(), "e2m-arrows-"));
  const config = JSON.parse(readFileSync(join(ROOT, "biome.json"), "utf8")) as Record<string, unknown>;
  delete config.$schema;
  writeFileSync(join(dir, "biome.json"), JSON.stringify(config));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const run = spawnSync(BIOME, ["lint", "--colors=off", "src"], { cwd: dir, encoding: "utf8" });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("the linter enforces the folders' arrows", () => {
  it("refuses store/ importing cloud/, naming the arrow", () => {
    const result = lint({
      "src/cloud/client.ts": "export const client = 1;\n",
      "src/store/open.ts": 'import { client } from "../cloud/client.js";\n\nexport const opened = client;\n',
    });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain("store/ may not import cloud/");
  });

  it("refuses homeassistant/ importing rules/: the Home Assistant side reads the rules through ports/", () => {
    const result = lint({
      "src/rules/engine.ts": "export const engine = 1;\n",
      "src/homeassistant/rules.ts": 'import { engine } from "../rules/engine.js";\n\nexport const shown = engine;\n',
    });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain("homeassistant/ may not import rules/");
  });

  it("refuses an import cycle, even of types", () => {
    const result = lint({
      "src/telemetry/a.ts": 'import type { B } from "./b.js";\n\nexport type A = { b?: B };\n',
      "src/telemetry/b.ts": 'import type { A } from "./a.js";\n\nexport type B = { a?: A };\n',
    });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain("noImportCycles");
  });

  it("refuses a leaf importing the rest of src/, and passes imports within time/", () => {
    const result = lint({
      "src/cloud/client.ts": "export const client = 1;\n",
      "src/time/zone.ts": "export const zone = 1;\n",
      "src/time/clock.ts":
        'import { client } from "../cloud/client.js";\nimport { zone } from "./zone.js";\n\nexport const clock = client + zone;\n',
      "src/vocabulary/device-id.ts": 'import { client } from "../cloud/client.js";\n\nexport const id = client;\n',
      "src/files/file-modes.ts": 'import { client } from "../cloud/client.js";\n\nexport const mode = client;\n',
    });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain("time/ is a leaf");
    expect(result.output).toContain("vocabulary/ is a leaf");
    expect(result.output).toContain("files/ is a leaf");
    expect(result.output.match(/is a leaf/g)).toHaveLength(3);
  });

  it("passes an allowed arrow (rules/ reading store/) and the leaves", () => {
    const result = lint({
      "src/store/index.ts": "export const opened = 1;\n",
      "src/time/index.ts": "export const zone = 1;\n",
      "src/rules/read.ts":
        'import { opened } from "../store/index.js";\nimport { zone } from "../time/index.js";\n\nexport const read = opened + zone;\n',
    });
    expect(result.output).not.toContain("may not import");
    expect(result.status).toBe(0);
  });

  it("refuses store/ importing the composition root (app/, cli/), and local/ importing the event bus", () => {
    const result = lint({
      "src/app/index.ts": "export const app = 1;\n",
      "src/cli/main.ts": "export const main = 1;\n",
      "src/bus/event-bus.ts": "export const bus = 1;\n",
      "src/store/open.ts":
        'import { app } from "../app/index.js";\nimport { main } from "../cli/main.js";\n\nexport const opened = app + main;\n',
      "src/local/session.ts": 'import { bus } from "../bus/event-bus.js";\n\nexport const session = bus;\n',
    });
    expect(result.status).not.toBe(0);
    expect(result.output.match(/store\/ may not import the composition root/g)).toHaveLength(2);
    expect(result.output).toContain("local/ may not import the composition root or the bus");
  });

  it("refuses the composition root (app/) importing past a folder's face", () => {
    const result = lint({
      "src/store/index.ts": 'export { opened } from "./open.js";\n',
      "src/store/open.ts": "export const opened = 1;\n",
      "src/app/build-store.ts": 'import { opened } from "../store/open.js";\n\nexport const store = opened;\n',
    });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain("import store/ through its face, store/index.ts");
  });

  it("refuses an import past another folder's face, naming the face to use", () => {
    const result = lint({
      "src/store/index.ts": 'export { opened } from "./open.js";\n',
      "src/store/open.ts": "export const opened = 1;\n",
      "src/rules/read.ts": 'import { opened } from "../store/open.js";\n\nexport const read = opened;\n',
    });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain("import store/ through its face, store/index.ts");
  });
});
