import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** What a fake daemon saw when a start script exec'd it. */
export interface Exec {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  readonly pid: number;
}

/** An executable that records its arguments, environment, folder and pid as JSON, then exits 0. */
export function fakeCommand(): { path: string; seen: () => Exec } {
  const dir = mkdtempSync(join(tmpdir(), "e2m-fake-"));
  const path = join(dir, "energy2mqtt");
  const out = join(dir, "exec.json");
  writeFileSync(
    path,
    `#!${process.execPath}\nrequire("node:fs").writeFileSync(${JSON.stringify(out)}, JSON.stringify({ argv: process.argv.slice(2), env: process.env, cwd: process.cwd(), pid: process.pid }));\n`,
  );
  chmodSync(path, 0o755);
  return { path, seen: () => JSON.parse(readFileSync(out, "utf8")) as Exec };
}

/** Runs a command to its end with exactly `env`; resolves with its exit code, pid and output. */
export function runScript(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number | null; pid: number | undefined; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += String(chunk);
    });
    child.stderr.on("data", (chunk) => {
      stderr += String(chunk);
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, pid: child.pid, stdout, stderr }));
  });
}
