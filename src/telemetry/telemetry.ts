import { defer, filter, merge, mergeMap, type Observable, ReplaySubject, Subject, share, takeUntil, tap } from "rxjs";
import type { CloudClient } from "../cloud/index.js";
import { type DeviceId, deviceIdOf } from "../device-id.js";
import type { Logger } from "../log.js";
import { type Clock, systemClock } from "../time/clock.js";
import { ChangeFilter } from "./changes.js";
import type { Fetched } from "./fetched.js";
import { Health } from "./health.js";
import type { Inventory } from "./inventory.js";
import type { PollConfig } from "./poll-config.js";
import { type Outcome, pollLoop } from "./poll-loop.js";
import { describePlan, POLL_SHARE, type PollPlan, planPolls } from "./poll-plan.js";
import type { PollSucceeded, Reading } from "./readings.js";
import { buildResources } from "./resources/index.js";

export type { PollConfig };

const MINUTE = 60_000;

export interface TelemetryOptions {
  readonly client: CloudClient;
  readonly inventory: Inventory;
  readonly poll: PollConfig;
  readonly logger?: Logger;
  /** Epoch ms for readings and query windows, and the poll loops' timers; the system clock by default, a virtual one in tests. */
  readonly clock?: Clock;
  /** What every poll fetched, changed or not, for the history (writing it again changes nothing). */
  readonly onFetched?: (fetched: readonly Fetched[]) => void;
  /** Every poll that got its answer, changed or not (readings$ carries changes only). */
  readonly onPolled?: (polled: PollSucceeded) => void;
  /** Each change of a device's availability, as readings$ carries it, without subscribing to it. */
  readonly onAvailability?: (reading: Extract<Reading, { kind: "availability" }>) => void;
  /** Failures in a row after which a resource's devices become unavailable; 3 by default. */
  readonly failuresBeforeUnavailable?: number;
  /** Longest wait before retrying a failing resource (its period, if longer); 5 minutes by default. */
  readonly maxBackoffMs?: number;
}

export interface Telemetry {
  /**
   * Changed readings and availability changes. Polling starts with the first subscriber and is
   * shared: subscribe every consumer before the first answer comes back.
   */
  readonly readings$: Observable<Reading>;
  /**
   * Settles once every resource has been polled once, answered or not: what is known at
   * start-up has been read, so Home Assistant can be told the devices' layout.
   */
  readonly firstRound: Promise<void>;
  /** Polls every resource of the device (deviceId()) at once, e.g. after a command. */
  refresh(deviceId: string): void;
  /** Abandons in-flight requests and completes readings$. */
  stop(): void;
}

export function startTelemetry(options: TelemetryOptions): Telemetry {
  const { logger } = options;
  const scheduler = options.clock ?? systemClock;
  const now = (): number => scheduler.now();
  const threshold = options.failuresBeforeUnavailable ?? 3;
  const maxBackoffMs = options.maxBackoffMs ?? 300_000;
  const stopped$ = new ReplaySubject<void>(1);
  const refresh$ = new Subject<DeviceId>();
  let firstRoundDone: () => void = () => undefined;
  const firstRound = new Promise<void>((resolve) => {
    firstRoundDone = resolve;
  });

  const readings$ = defer(() => {
    const plan = planFor(options);
    const unpolled = new Set(plan.resources.map((resource) => resource.name));
    if (unpolled.size === 0) firstRoundDone();
    const changes = new ChangeFilter();
    const health = new Health(threshold);
    // No signal is shared by the loops: stop() unsubscribes them, which aborts each poll in flight.
    const loops = plan.resources.map((resource) =>
      pollLoop(resource, {
        scheduler,
        maxBackoffMs,
        firstPollAfterMs: plan.firstPollAfter.get(resource) ?? 0,
        wake: refresh$.pipe(filter((id) => resource.devices.includes(id))),
      }),
    );
    return merge(...loops).pipe(
      tap((outcome) => logOutcome(logger, outcome, threshold)),
      tap((outcome) => {
        if (unpolled.delete(outcome.resource.name) && unpolled.size === 0) firstRoundDone();
      }),
      mergeMap((outcome) => {
        const at = now();
        const availability = health.record(outcome, at);
        if (outcome.ok) {
          const { name, devices, periodMs } = outcome.resource;
          options.onPolled?.({ resource: name, devices, periodMs, at });
        }
        const fetched = outcome.ok ? outcome.result.fetched : undefined;
        if (fetched && fetched.length > 0) options.onFetched?.(fetched);
        for (const reading of availability) {
          logAvailability(logger, reading);
          if (reading.kind === "availability") options.onAvailability?.(reading);
        }
        const data = outcome.ok ? outcome.result.readings.filter((reading) => changes.changed(reading)) : [];
        return [...availability, ...data];
      }),
    );
  }).pipe(takeUntil(stopped$), share());

  return {
    readings$,
    firstRound,
    refresh: (deviceId) => refresh$.next(deviceIdOf(deviceId)),
    stop: () => {
      firstRoundDone();
      stopped$.next();
      stopped$.complete();
      refresh$.complete();
    },
  };
}

/**
 * The polls fitted into the token's budget (see planPolls), said in one line at start-up, and
 * the budget told how many live requests to keep free of background history.
 */
function planFor(options: TelemetryOptions): PollPlan {
  const { client, inventory, logger } = options;
  const clock = options.clock ?? systemClock;
  const now = (): number => clock.now();
  const budget = client.http.budget;
  const perMinute = MINUTE / budget.windowMs;
  const plan = planPolls({
    inventory,
    poll: options.poll,
    availablePerMinute: budget.allowance("live") * perMinute * POLL_SHARE,
    build: (poll) => buildResources({ client, now, timezone: inventory.timezone }, inventory, poll),
  });
  budget.expectLive(plan.plannedPerMinute / perMinute);
  const limit = Math.round(budget.state().limit * perMinute);
  const fields = {
    requiredPerMinute: Math.ceil(plan.requiredPerMinute),
    budgetPerMinute: limit,
    stretch: Number(plan.stretch.toFixed(2)),
    intervalsMs: plan.poll,
  };
  if (plan.stretch > 1) logger?.warn(fields, describePlan(plan, inventory, limit));
  else logger?.info(fields, describePlan(plan, inventory, limit));
  return plan;
}

function logAvailability(logger: Logger | undefined, reading: Reading): void {
  if (!logger || reading.kind !== "availability") return;
  if (reading.available) logger.info({ device: reading.device }, "device available");
  else logger.warn({ device: reading.device }, `device unavailable: ${reading.reason}`);
}

function logOutcome(logger: Logger | undefined, outcome: Outcome, threshold: number): void {
  if (!logger || outcome.ok) return;
  const { failures, error } = outcome;
  const message = `${outcome.resource.name}: poll failed (${failures} in a row): ${error instanceof Error ? error.message : String(error)}`;
  if (failures === 1 || failures === threshold) logger.warn(message);
  else logger.debug(message);
}
