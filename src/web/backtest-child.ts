import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

/** Starts `energy2mqtt <args>` as a child process; its stdout and stderr piped. */
export type SpawnCli = (args: readonly string[]) => ChildProcess;

/**
 * The CLI as a child of this process: dist/cli/entry.js when the daemon runs built, src/cli/entry.ts
 * under tsx when it runs from the sources (the tests, `tsx src/...`).
 */
export const spawnCli: SpawnCli = (args) => {
  const fromSources = import.meta.url.endsWith(".ts");
  const entry = fileURLToPath(new URL(`../cli/entry.${fromSources ? "ts" : "js"}`, import.meta.url));
  // tsx found from here, not from wherever the daemon was started.
  const loader = fromSources ? ["--import", pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href] : [];
  return spawn(process.execPath, [...loader, entry, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
};
