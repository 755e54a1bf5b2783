import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SCRIPT = resolve("scripts/build-if-stale.mjs");
const T = Date.parse("2026-01-10T12:00:00Z") / 1000;

/** A project whose `build` counts its runs and writes dist/cli/main.js, as tsc does. */
function project(options: { withSrc?: boolean } = {}) {
  const root = mkdtempSync(join(tmpdir(), "e2m-stale-"));
  const count = join(root, "builds.txt");
  const build = `node -e "const fs=require('fs');fs.mkdirSync('dist/cli',{recursive:true});fs.writeFileSync('dist/cli/main.js','');fs.appendFileSync('builds.txt','x')"`;
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "p", scripts: { build } }));
  if (options.withSrc !== false) {
    mkdirSync(join(root, "src", "nested"), { recursive: true });
    writeFileSync(join(root, "src", "nested", "a.ts"), "export {};\n");
  }
  const age = (path: string, seconds: number) => utimesSync(join(root, path), T + seconds, T + seconds);
  const start = () => spawnSync(process.execPath, [SCRIPT], { cwd: root, encoding: "utf8" });
  const builds = () => (existsSync(count) ? readFileSync(count, "utf8").length : 0);
  return { root, age, start, builds };
}

describe("npm start's build step (scripts/build-if-stale.mjs)", () => {
  it("builds when dist/ is missing, and says why", () => {
    const p = project();
    const run = p.start();
    expect(run.status).toBe(0);
    expect(run.stderr).toContain("building (dist/ is missing)");
    expect(p.builds()).toBe(1);
  });

  it("does not build again while dist/ is newer than every source", () => {
    const p = project();
    p.start();
    for (const path of ["package.json", "src", "src/nested", "src/nested/a.ts"]) p.age(path, 0);
    p.age("dist/cli/main.js", 60);
    const run = p.start();
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
    expect(p.builds()).toBe(1);
  });

  it("builds again when a source file deep in src/ changed after the build", () => {
    const p = project();
    p.start();
    for (const path of ["package.json", "src", "src/nested"]) p.age(path, 0);
    p.age("dist/cli/main.js", 60);
    p.age("src/nested/a.ts", 120);
    const run = p.start();
    expect(run.stderr).toContain("building (src changed since the last build)");
    expect(p.builds()).toBe(2);
  });

  it("builds nothing in an installed package, which has dist/ and no src/", () => {
    const p = project({ withSrc: false });
    const run = p.start();
    expect(run.status).toBe(0);
    expect(p.builds()).toBe(0);
  });

  it("fails with the build's exit code and a hint when the build fails", () => {
    const p = project();
    writeFileSync(join(p.root, "package.json"), JSON.stringify({ name: "p", scripts: { build: "exit 3" } }));
    const run = p.start();
    expect(run.status).toBe(3);
    expect(run.stderr).toContain("npm ci");
  });
});
