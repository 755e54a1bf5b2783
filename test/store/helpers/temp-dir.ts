import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh folder per test file, removed afterwards. */
export function tempDir(prefix = "e2m-store-"): { path: (name: string) => string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { path: (name) => join(dir, name), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
