import { AuthenticationError, CloudError, ForbiddenError } from "../../../cloud/index.js";
// biome-ignore lint/style/noRestrictedImports: past commands/'s face on purpose: it loads each command only when it runs, and these are its commands.
import { cliLogger, openStoreOr, readConfig, requireCloud } from "../../../commands/shared.js";
import { type Clock, systemClock } from "../../../time/index.js";
import { cloudHistory } from "../../index.js";
import {
  ARCHIVE_KINDS,
  type ArchiveKind,
  type ArchiveReport,
  archiveAccount,
  formatReport,
  isArchiveKind,
  isDay,
  progressView,
} from "../index.js";
import { cloudClient } from "./client.js";

export interface ArchiveCommandOptions {
  readonly config?: string;
  readonly from?: string;
  readonly to?: string;
  /** One kind, or several separated by commas. */
  readonly only?: string;
}

export interface ArchiveIo {
  readonly out?: NodeJS.WritableStream;
  readonly err?: NodeJS.WritableStream & { isTTY?: boolean };
  /** Where Ctrl-C comes from; the process by default. */
  readonly signals?: Pick<NodeJS.Process, "on" | "off">;
  /** Milliseconds between plain progress lines when stderr is not a terminal. */
  readonly progressIntervalMs?: number;
  /** What "today" is and the progress timer; the system clock by default. */
  readonly clock?: Clock;
}

/** Exit code after a Ctrl-C: the shell's convention for SIGINT. */
export const EXIT_INTERRUPTED = 130;

interface Arguments {
  readonly from?: string;
  readonly to?: string;
  readonly kinds?: readonly ArchiveKind[];
}

/**
 * `energy2mqtt archive`: copies the account's history into the store. 0 when everything asked
 * for was read, 1 when something failed, 2 for bad arguments or configuration, 130 after Ctrl-C
 * (a second Ctrl-C quits at once; either way a rerun resumes).
 */
export async function runArchiveCommand(options: ArchiveCommandOptions, io: ArchiveIo = {}): Promise<number> {
  const out = io.out ?? process.stdout;
  // The command is a composition root: it chooses the clock (the system's unless a test pins one).
  const clock = io.clock ?? systemClock;
  const err = io.err ?? process.stderr;
  const args = parseArguments(options);
  if (typeof args === "string") {
    err.write(`energy2mqtt archive: ${args}\n`);
    return 2;
  }
  const config = readConfig(options.config, err);
  if (typeof config === "number") return config;
  const cloud = requireCloud(config, err, "energy2mqtt archive");
  if (typeof cloud === "number") return cloud;
  const { url, token } = cloud;
  const store = openStoreOr(config, err, "energy2mqtt archive: ");
  if (typeof store === "number") return store;

  const client = cloudClient(config, url, token);
  // Ctrl-C drops the requests under way (a wait for the rate window can be a minute) and keeps
  // what is committed: a rerun resumes there.
  const stopping = new AbortController();
  const onSigint = (): void => {
    if (stopping.signal.aborted) {
      err.write("\nquitting now; a rerun resumes from the last committed request\n");
      process.exit(EXIT_INTERRUPTED);
    }
    stopping.abort();
    err.write("\nstopping: the requests under way are dropped, what is saved stays; run again to resume\n");
  };
  const signals = io.signals ?? process;
  signals.on("SIGINT", onSigint);
  const view = progressView(err, {
    tty: err.isTTY === true,
    perMinute: () => client.http.budget.state().limit,
    budget: () => client.http.budget.state(),
    ...(io.progressIntervalMs !== undefined ? { intervalMs: io.progressIntervalMs } : {}),
    clock,
  });
  let report: ArchiveReport;
  try {
    report = await archiveAccount({
      source: cloudHistory(client),
      history: store.history,
      stopping: stopping.signal,
      signal: stopping.signal,
      onProgress: (progress) => view.update(progress),
      logger: cliLogger(config),
      clock,
      ...(args.from !== undefined ? { from: args.from } : {}),
      ...(args.to !== undefined ? { to: args.to } : {}),
      ...(args.kinds ? { kinds: args.kinds } : {}),
    });
  } catch (error) {
    // Ctrl-C while the account was still being read: nothing was copied yet.
    if (stopping.signal.aborted) {
      err.write("energy2mqtt archive: interrupted before copying began\n");
      return EXIT_INTERRUPTED;
    }
    if (!(error instanceof CloudError)) throw error;
    err.write(`energy2mqtt archive: ${error.message}\n`);
    return error instanceof AuthenticationError || error instanceof ForbiddenError ? 2 : 1;
  } finally {
    view.end();
    signals.off("SIGINT", onSigint);
    store.close();
  }
  out.write(formatReport(report));
  if (report.failures.length > 0) return 1;
  return report.interrupted ? EXIT_INTERRUPTED : 0;
}

function parseArguments(options: ArchiveCommandOptions): Arguments | string {
  for (const [name, value] of [
    ["--from", options.from],
    ["--to", options.to],
  ] as const) {
    if (value !== undefined && !isDay(value)) return `${name} must be a date as YYYY-MM-DD, got "${value}"`;
  }
  if (options.from !== undefined && options.to !== undefined && options.from > options.to) {
    return `--from (${options.from}) is after --to (${options.to})`;
  }
  let kinds: ArchiveKind[] | undefined;
  if (options.only !== undefined) {
    const names = options.only
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name.length > 0);
    const unknown = names.filter((name) => !isArchiveKind(name));
    if (names.length === 0 || unknown.length > 0) {
      return `unknown --only kind ${unknown.map((n) => `"${n}"`).join(", ") || '""'}; allowed: ${ARCHIVE_KINDS.join(", ")} (several separated by commas)`;
    }
    kinds = names.filter(isArchiveKind);
  }
  return {
    ...(options.from !== undefined ? { from: options.from } : {}),
    ...(options.to !== undefined ? { to: options.to } : {}),
    ...(kinds ? { kinds } : {}),
  };
}
