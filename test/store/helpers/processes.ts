import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

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

/** Runs openStore in a child process, as another user when given (root ignores file modes). */
export function openStoreInChild(path: string, user?: { uid: number; gid: number }): ChildOpenResult {
  const result = spawnSync(
    process.execPath,
    ["--import", "tsx", fileURLToPath(new URL("./open-store-child.ts", import.meta.url)), path],
    { cwd: ROOT, encoding: "utf8", ...(user ?? {}) },
  );
  if (result.status !== 0) throw new Error(`the child failed (${result.status}): ${result.stderr}`);
  return JSON.parse(result.stdout) as ChildOpenResult;
}
