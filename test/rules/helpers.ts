import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RulesError } from "../../src/rules/file/load.js";

/** Writes rules.yaml (and optional sibling files) into a fresh folder; returns its path. */
export function rulesFile(lines: readonly string[], siblings: Readonly<Record<string, string>> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "e2m-rules-"));
  for (const [name, text] of Object.entries(siblings)) writeFileSync(join(dir, name), text);
  const file = join(dir, "rules.yaml");
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

export function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof RulesError) return [...error.problems];
    throw error;
  }
  throw new Error("expected a RulesError");
}

/** Epoch ms of a UTC wall time, for readable fixed clocks. */
export const utc = (text: string): number => Date.parse(`${text}Z`);
export const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 16);
