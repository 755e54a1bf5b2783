import {
  AuthenticationError,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  SubscriptionRequiredError,
} from "../../../cloud/index.js";
import type { Logger } from "../../../log/log.js";
import { type History, StoreError } from "../../../store/index.js";
import { type Clock, dayOf } from "../../../time/index.js";
import type { HistorySource } from "../ports.js";
import { type Fetched, fetchTask } from "./fetch.js";
import { type ArchiveKind, KINDS_WITH_CADENCE } from "./kinds.js";
import type { Task } from "./plan.js";
import type { ArchiveReport, Failure, KindTotals, Missing } from "./report.js";

export interface Progress {
  readonly requestsDone: number;
  /** Requests done plus those still planned (one per task not started; extra pages add more). */
  readonly requestsPlanned: number;
  readonly startedAt: number;
  readonly current?: Task;
}

export interface RunOptions {
  /** Where the long history is read from. */
  readonly source: HistorySource;
  readonly history: History;
  readonly timezone: string;
  /** The system clock by default. */
  readonly clock: Clock;
  /** Aborts requests under way: the hard stop. */
  readonly signal?: AbortSignal;
  /** No new task starts once this aborts; those under way finish and are committed. */
  readonly stopping?: AbortSignal;
  /** Tasks in flight at once; the rate budget is the real limit. */
  readonly concurrency?: number;
  readonly onProgress?: (progress: Progress) => void;
  readonly logger?: Logger;
}

/** A 429 after the client's own retries: the budget is paused until the window ends, so try again then. */
const RATE_LIMITED_RETRIES = 5;

/**
 * Runs the tasks at background priority, committing each answer with its days in one
 * transaction, so a kill loses nothing committed. A 403 skips the rest of that kind, a 404 the
 * rest of that kind for that device; 401 and 402 end the run; other errors are recorded and
 * the run goes on.
 */
export async function runTasks(tasks: readonly Task[], options: RunOptions): Promise<ArchiveReport> {
  const { source, history, timezone, logger } = options;
  const clock = options.clock;
  const now = (): number => clock.now();
  const startedAt = now();
  const kinds = new Map<ArchiveKind, KindTotals>();
  const missing: Missing[] = [];
  const failures: Failure[] = [];
  const blockedKinds = new Set<ArchiveKind>();
  const blockedDevices = new Set<string>();
  const noData = new Map<string, { kind: ArchiveKind; device: string; days: number }>();
  const halt = new AbortController();
  // One signal for every task: the hard stop or a halt ends them all. (AbortSignal.any per task
  // would leave a dependant behind on the daemon's long-lived signal at every task, for ever.)
  const abortTasks = new AbortController();
  const endTasks = (): void => abortTasks.abort();
  options.signal?.addEventListener("abort", endTasks, { once: true });
  halt.signal.addEventListener("abort", endTasks, { once: true });
  if (options.signal?.aborted) endTasks();
  let requests = 0;
  let next = 0;
  let done = 0;
  let waitingFirstRequest = 0;
  let interrupted = false;
  let storeFailure: StoreError | undefined;

  const progress = (current?: Task): void =>
    options.onProgress?.({
      requestsDone: requests,
      requestsPlanned: requests + (tasks.length - next) + waitingFirstRequest,
      startedAt,
      ...(current ? { current } : {}),
    });

  const commit = (task: Task, fetched: Fetched): void => {
    const result = history.markFetched(fetched.days, fetched.records);
    const totals = kinds.get(task.kind) ?? { rows: 0, inserted: 0, days: 0, completeDays: 0, devices: new Set() };
    totals.rows += fetched.records.length;
    totals.inserted += result.inserted;
    totals.days += fetched.days.length;
    totals.completeDays += fetched.days.filter((day) => day.complete).length;
    totals.devices.add(task.device);
    kinds.set(task.kind, totals);
    if (!KINDS_WITH_CADENCE.has(task.kind)) return;
    const withData = new Set(fetched.records.map((record) => dayOf(record.at, timezone)));
    const empty = fetched.days.filter((day) => day.complete && !withData.has(day.day)).length;
    if (empty === 0) return;
    const key = `${task.kind}|${task.device}`;
    const entry = noData.get(key) ?? { kind: task.kind, device: task.device, days: 0 };
    entry.days += empty;
    noData.set(key, entry);
  };

  const runOne = async (task: Task): Promise<void> => {
    let made = 0;
    waitingFirstRequest++;
    const onRequest = (): void => {
      if (made++ === 0) waitingFirstRequest--;
      requests++;
      progress(task);
    };
    const signal = abortTasks.signal;
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          commit(
            task,
            await fetchTask(task, { source, timezone, now, call: { priority: "background", signal }, onRequest }),
          );
          return;
        } catch (error) {
          if (!(error instanceof RateLimitedError) || attempt >= RATE_LIMITED_RETRIES) throw error;
        }
      }
    } catch (error) {
      if (error instanceof StoreError) {
        // What is read next could not be stored either: stop asking the cloud for it.
        storeFailure ??= error;
        failures.push({ kind: task.kind, device: task.device, days: task.days, message: error.message });
        halt.abort(error);
        return;
      }
      if (signal.aborted) {
        interrupted = true;
        return;
      }
      classify(task, error);
    } finally {
      if (made === 0) waitingFirstRequest--;
      done++;
    }
  };

  const classify = (task: Task, error: unknown): void => {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof ForbiddenError) {
      if (!blockedKinds.has(task.kind))
        missing.push({ kind: task.kind, reason: "not allowed (403)", message, days: 0 });
      blockedKinds.add(task.kind);
      addDays(task);
      return;
    }
    if (error instanceof NotFoundError) {
      missing.push({
        kind: task.kind,
        device: task.device,
        reason: "not found (404)",
        message,
        days: task.days.length,
      });
      blockedDevices.add(`${task.kind}|${task.device}`);
      return;
    }
    failures.push({ kind: task.kind, device: task.device, days: task.days, message });
    logger?.warn(
      { kind: task.kind, device: task.device, days: task.days.length, err: message },
      "archive request failed",
    );
    if (error instanceof AuthenticationError || error instanceof SubscriptionRequiredError) halt.abort(error);
  };

  /** Counts a task's days into the missing entry that stopped it. */
  const addDays = (task: Task): void => {
    const entry = missing.find(
      (m) => m.kind === task.kind && (m.device === undefined || m.device === task.device) && m.reason !== "no data",
    );
    if (entry) entry.days = (entry.days ?? 0) + task.days.length;
  };

  const skipped = (task: Task): boolean => {
    if (!blockedKinds.has(task.kind) && !blockedDevices.has(`${task.kind}|${task.device}`)) return false;
    addDays(task);
    return true;
  };

  const worker = async (): Promise<void> => {
    while (next < tasks.length && !halt.signal.aborted && !options.signal?.aborted) {
      if (options.stopping?.aborted) {
        interrupted = true;
        return;
      }
      const task = tasks[next++];
      if (!task || skipped(task)) {
        done++;
        continue;
      }
      await runOne(task);
    }
  };

  progress();
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  } finally {
    options.signal?.removeEventListener("abort", endTasks);
  }
  if (next < tasks.length) interrupted = interrupted || !halt.signal.aborted;
  for (const entry of noData.values()) missing.push({ ...entry, reason: "no data" });
  progress();
  return {
    requests,
    elapsedMs: now() - startedAt,
    tasks: tasks.length,
    tasksDone: done,
    kinds,
    missing,
    failures,
    interrupted,
    ...(storeFailure ? { storeFailure } : {}),
  };
}
