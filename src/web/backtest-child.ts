import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** Starts `energy2mqtt <args>` as a child process; its stdout and stderr piped. */
export type SpawnCli = (args: readonly string[]) => ChildProcess;

/**
 * The CLI as a child of this process: dist/cli/entry.js when the daemon runs built, src/cli/entry.ts
 * under tsx when it runs from the sources (the tests, `tsx src/...`).
 */
export const spawnCli: SpawnCli = (args) => {
  const fromSources = import.meta.url.endsWith(".ts");
  const entry = fileURLToPath(new URL(`../cli/entry.${fromSources ? "ts" : "js"}`, import.meta.url));
  return spawn(process.execPath, [...(fromSources ? ["--import", "tsx"] : []), entry, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
};
