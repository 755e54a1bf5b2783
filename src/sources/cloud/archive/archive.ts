import type { ArchiveKind } from "./kinds.js";
import { planArchive } from "./plan.js";
import type { ArchiveReport } from "./report.js";
import { type RunOptions, runTasks } from "./run.js";
import { discoverTargets } from "./targets.js";

/** What runTasks takes, less the time zone (found by discovery), plus the span and kinds to copy. */
export interface ArchiveOptions extends Omit<RunOptions, "timezone"> {
  /** YYYY-MM-DD, local to the account; by default each device's commission day. */
  readonly from?: string;
  /** YYYY-MM-DD, included; by default today. */
  readonly to?: string;
  readonly kinds?: readonly ArchiveKind[];
}

/** Copies the account's history into the store: discover, plan what is not complete yet, run. */
export async function archiveAccount(options: ArchiveOptions): Promise<ArchiveReport> {
  const clock = options.clock;
  const call = { priority: "background" as const, ...(options.signal ? { signal: options.signal } : {}) };
  const targets = await discoverTargets(options.source, call);
  const tasks = planArchive(targets, options.history, {
    now: clock.now(),
    ...(options.from !== undefined ? { from: options.from } : {}),
    ...(options.to !== undefined ? { to: options.to } : {}),
    ...(options.kinds ? { kinds: options.kinds } : {}),
  });
  options.logger?.info(
    { inverters: targets.inverters.length, chargers: targets.evChargers.length, tasks: tasks.length },
    "archive planned",
  );
  const report = await runTasks(tasks, { ...options, timezone: targets.timezone, clock });
  const unavailable = (targets.unavailable ?? []).map((u) => ({
    kind: "devices" as const,
    device: u.what,
    reason: u.reason.includes("(403)") ? ("not allowed (403)" as const) : ("not found (404)" as const),
    message: u.reason,
  }));
  // Discovery is four requests (account and three single-page listings) before the tasks.
  return { ...report, requests: report.requests + 4, missing: [...unavailable, ...report.missing] };
}
