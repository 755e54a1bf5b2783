import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The cloud's words stay behind the cloud's adapter (issue 36): nothing under src/ imports from
 * src/cloud/ but cloud/ itself, its adapter sources/cloud/, and the simulator, which is the cloud's
 * other side (it answers the cloud's contract, so it must speak it).
 *
 * What only the cloud has (its account's archive, snapshots and preset profiles, long history, API
 * commands) is behind its adapter, in sources/cloud/, and everything else speaks the daemon's words.
 * The list of files that still import cloud/ is exact, and empty now: a file that starts importing
 * it fails this test.
 */
const STILL_IMPORTING: readonly string[] = [];

const SRC = resolve(import.meta.dirname, "../../src");
const CLOUD = join(SRC, "cloud");
const ALLOWED = [CLOUD, join(SRC, "sources/cloud"), join(SRC, "simulator")];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every module a file imports or re-exports, statically or dynamically, resolved to a path. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)["']([^"']+)["']/gm)].map(
    (match) => match[1] ?? "",
  );
  return specifiers.filter((spec) => spec.startsWith(".")).map((spec) => resolve(dirname(file), spec));
}

const inside = (path: string, dir: string): boolean => path === dir || path.startsWith(`${dir}/`);

function cloudImporters(): string[] {
  return sourceFiles(SRC)
    .filter((file) => !ALLOWED.some((dir) => inside(file, dir)))
    .filter((file) => importsOf(file).some((path) => inside(path, CLOUD)))
    .map((file) => relative(SRC, file))
    .sort();
}

describe("the cloud's words stay behind its adapter", () => {
  it("finds an import of cloud/ however it is written", () => {
    // The scan itself: this test file's own folder imports nothing from src/, so check the parser on a known importer.
    const adapter = join(SRC, "sources/cloud/readings.ts");
    expect(importsOf(adapter).some((path) => inside(path, CLOUD))).toBe(true);
  });

  it("is not needed to build a house: the in-memory path speaks the daemon's words only", () => {
    const house = ["fake.ts", "fake-daemon.test.ts", "fake-path.test.ts"].map((name) =>
      resolve(import.meta.dirname, "../sources", name),
    );
    const cloudImports = house.flatMap((file) => importsOf(file).filter((path) => inside(path, CLOUD)));
    expect(cloudImports).toEqual([]);
    // The scan does see those files' imports of src/.
    expect(house.flatMap(importsOf).some((path) => inside(path, join(SRC, "sources")))).toBe(true);
  });

  it("is imported outside cloud/, sources/cloud/ and the simulator only by the files listed, all of them", () => {
    expect(cloudImporters()).toEqual([...STILL_IMPORTING].sort());
  });
});
