import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { chmodSync, cpSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** Another process that holds an exclusive transaction on the database until released. */
export async function lockFromAnotherProcess(path: string): Promise<{ release: () => Promise<void> }> {
  const script = `
    const Database = require("better-sqlite3");
    const db = new Database(process.argv[1]);
    db.exec("BEGIN EXCLUSIVE");
    process.stdout.write("locked\\n");
    process.stdin.resume();
    process.stdin.on("end", () => { db.exec("ROLLBACK"); db.close(); process.exit(0); });
  `;
  const child: ChildProcess = spawn(process.execPath, ["-e", script, path], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the locking process exited early (${code})`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("locked")) resolve();
    });
  });
  return {
    release: async () => {
      const exited = once(child, "exit");
      child.stdin?.end();
      await exited;
    },
  };
}

export interface ChildOpenResult {
  readonly ok: boolean;
  readonly name?: string;
  readonly kind?: string;
  readonly message?: string;
}

/**
 * Runs openStore in a child process, as another user when given (root ignores file modes). That
 * user may not be able to enter the checkout (a clone in a directory only root can enter), so
 * the child then runs from a copy of its own: the script bundled, and better-sqlite3 beside it.
 */
export function openStoreInChild(path: string, user?: { uid: number; gid: number }): ChildOpenResult {
  const child = fileURLToPath(new URL("./open-store-child.ts", import.meta.url));
  if (!user) return runChild(process.execPath, ["--import", "tsx", child, path], { cwd: ROOT });
  const dir = mkdtempSync(join(tmpdir(), "e2m-store-child-"));
  try {
    buildSync({
      entryPoints: [child],
      bundle: true,
      platform: "node",
      format: "esm",
      outfile: join(dir, "child.mjs"),
      external: ["better-sqlite3"],
      logLevel: "error",
    });
    for (const name of ["better-sqlite3", "bindings", "file-uri-to-path"])
      cpSync(join(ROOT, "node_modules", name), join(dir, "node_modules", name), { recursive: true });
    readableByAll(dir);
    return runChild(process.execPath, [join(dir, "child.mjs"), path], { cwd: dir, ...user });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function runChild(
  command: string,
  args: string[],
  options: { cwd: string; uid?: number; gid?: number },
): ChildOpenResult {
  const result = spawnSync(command, args, { ...options, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`the child failed (${result.status}): ${result.stderr}`);
  return JSON.parse(result.stdout) as ChildOpenResult;
}

function readableByAll(path: string): void {
  const directory = statSync(path).isDirectory();
  chmodSync(path, directory ? 0o755 : 0o644);
  if (directory) for (const entry of readdirSync(path)) readableByAll(join(path, entry));
}
