import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "../../src/config/index.js";

/** configuration.yaml in a fresh folder (with a secrets.yaml beside it when given). */
export function configFile(yaml: string, secrets?: string): string {
  const dir = mkdtempSync(join(tmpdir(), "e2m-config-"));
  if (secrets !== undefined) writeFileSync(join(dir, "secrets.yaml"), secrets);
  const file = join(dir, "configuration.yaml");
  writeFileSync(file, yaml);
  return file;
}

/** The problems a ConfigError lists; fails when `run` does not throw one. */
export function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  throw new Error("expected a ConfigError");
}
