import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

export interface LogLine {
  readonly msg?: string;
  readonly level?: number;
  readonly [key: string]: unknown;
}

export interface DaemonProcess {
  readonly child: ChildProcess;
  readonly dir: string;
  /** Every JSON log line so far (pino writes to stderr). */
  readonly logs: LogLine[];
  /** stderr lines that are not JSON logs. */
  readonly stderr: string[];
  /** Resolves with the first log line (so far or to come) that `match` accepts. */
  waitForLog(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** Sends the signal and resolves with the exit code and how long the process took to end. */
  stop(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
}

/**
 * `energy2mqtt run` as a child process (from src/, as bin/ runs dist/), with its configuration
 * written to a temporary folder. `DIR` in the YAML stands for that folder.
 */
export function startDaemonProcess(yaml: string, files: Readonly<Record<string, string>> = {}): DaemonProcess {
  const dir = mkdtempSync(join(tmpdir(), "e2m-daemon-"));
  const config = join(dir, "configuration.yaml");
  writeFileSync(config, yaml.replaceAll("DIR", dir));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text.replaceAll("DIR", dir));
  const child = spawn(process.execPath, ["--import", "tsx", "test/helpers/cli-entry.ts", "run", "-c", config], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.resume();
  const logs: LogLine[] = [];
  const stderr: string[] = [];
  const waiters = new Set<() => void>();
  if (child.stderr) {
    createInterface({ input: child.stderr }).on("line", (line) => {
      try {
        logs.push(JSON.parse(line) as LogLine);
      } catch {
        stderr.push(line);
      }
      for (const wake of waiters) wake();
    });
  }
  const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;

  const waitForLog = (match: (line: LogLine) => boolean, timeoutMs = 20_000): Promise<LogLine> =>
    new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = logs.find(match);
        if (!found) return false;
        finish();
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`no such log line within ${timeoutMs} ms; last lines:\n${tail()}`));
      }, timeoutMs);
      const onExit = (): void => {
        if (check()) return;
        finish();
        reject(new Error(`the daemon exited before that log line; last lines:\n${tail()}`));
      };
      const wake = (): void => void check();
      const finish = (): void => {
        clearTimeout(timer);
        waiters.delete(wake);
        child.off("exit", onExit);
      };
      waiters.add(wake);
      child.once("exit", onExit);
      check();
    });

  const tail = (): string =>
    [...logs.slice(-8).map((line) => JSON.stringify(line)), ...stderr.slice(-4)].join("\n").slice(-4000);

  return {
    child,
    dir,
    logs,
    stderr,
    waitForLog,
    async stop(signal) {
      const sent = performance.now();
      child.kill(signal);
      const [code, by] = await exited;
      return { code, signal: by, ms: Math.round(performance.now() - sent) };
    },
  };
}

/** Kills what a failed test left running. */
export function killDaemon(daemon: DaemonProcess | undefined): void {
  if (daemon && daemon.child.exitCode === null && daemon.child.signalCode === null) daemon.child.kill("SIGKILL");
}
