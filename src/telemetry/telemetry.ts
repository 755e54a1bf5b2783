import { defer, filter, merge, mergeMap, type Observable, ReplaySubject, Subject, share, takeUntil, tap } from "rxjs";
import type { Logger } from "../log/log.js";
import type { DeviceSource, Fetched, Inventory, PollConfig } from "../sources/index.js";
import type { Clock } from "../time/index.js";
import { type DeviceId, deviceIdOf } from "../vocabulary/device-id.js";
import { Health } from "./health.js";
import { type Outcome, pollLoop } from "./poll-loop.js";
import { describePlan, POLL_SHARE, type PollPlan, planPolls } from "./poll-plan.js";
import type { Availability, PollSucceeded } from "./states.js";

export type { PollConfig };

/** What telemetry tells: an answer fetched, or a device's availability changed. */
export type TelemetryEvent = Fetched | Availability;

const MINUTE = 60_000;

export interface TelemetryOptions {
  readonly source: DeviceSource;
  readonly inventory: Inventory;
  readonly poll: PollConfig;
  readonly logger?: Logger;
  /** Epoch ms for what is fetched and query windows, and the poll loops' timers; the system clock by default, a virtual one in tests. */
  readonly clock: Clock;
  /** Every poll that got its answer, changed or not. */
  readonly onPolled?: (polled: PollSucceeded) => void;
  /** Failures in a row after which a resource's devices become unavailable; 3 by default. */
  readonly failuresBeforeUnavailable?: number;
  /** Longest wait before retrying a failing resource (its period, if longer); 5 minutes by default. */
  readonly maxBackoffMs?: number;
}

export interface Telemetry {
  /**
   * What each poll fetched, changed or not (once per answer), and each change of a device's
   * availability. Polling starts with the first subscriber and is shared: subscribe every
   * consumer before the first answer comes back.
   */
  readonly events$: Observable<TelemetryEvent>;
  /**
   * Settles once every resource has been polled once, answered or not: what is known at
   * start-up has been read, so Home Assistant can be told the devices' layout.
   */
  readonly firstRound: Promise<void>;
  /** Polls every resource of the device (deviceId()) at once, e.g. after a command. */
  refresh(deviceId: string): void;
  /** Abandons in-flight requests and completes events$. */
  stop(): void;
}

export function startTelemetry(options: TelemetryOptions): Telemetry {
  const { logger } = options;
  const scheduler = options.clock;
  const now = (): number => scheduler.now();
  const threshold = options.failuresBeforeUnavailable ?? 3;
  const maxBackoffMs = options.maxBackoffMs ?? 300_000;
  const stopped$ = new ReplaySubject<void>(1);
  const refresh$ = new Subject<DeviceId>();
  let firstRoundDone: () => void = () => undefined;
  const firstRound = new Promise<void>((resolve) => {
    firstRoundDone = resolve;
  });

  const events$ = defer(() => {
    const plan = planFor(options);
    const unpolled = new Set(plan.resources.map((resource) => resource.name));
    if (unpolled.size === 0) firstRoundDone();
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
      mergeMap((outcome): TelemetryEvent[] => {
        const at = now();
        const availability = health.record(outcome, at);
        if (outcome.ok) {
          const { name, devices, periodMs } = outcome.resource;
          options.onPolled?.({ resource: name, devices, periodMs, at });
        }
        for (const verdict of availability) logAvailability(logger, verdict);
        const fetched = outcome.ok ? outcome.result.fetched : undefined;
        return fetched ? [...availability, fetched] : availability;
      }),
    );
  }).pipe(takeUntil(stopped$), share());

  return {
    events$,
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
  const { source, inventory, logger } = options;
  const clock = options.clock;
  const now = (): number => clock.now();
  const { budget } = source;
  const perMinute = MINUTE / budget.windowMs;
  const plan = planPolls({
    inventory,
    poll: options.poll,
    availablePerMinute: budget.liveAllowance() * perMinute * POLL_SHARE,
    build: (poll) => source.resources(inventory, poll, now),
  });
  budget.expectLive(plan.plannedPerMinute / perMinute);
  const limit = Math.round(budget.limit() * perMinute);
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

function logAvailability(logger: Logger | undefined, verdict: Availability): void {
  if (!logger) return;
  if (verdict.available) logger.info({ device: verdict.device }, "device available");
  else logger.warn({ device: verdict.device }, `device unavailable: ${verdict.reason}`);
}

function logOutcome(logger: Logger | undefined, outcome: Outcome, threshold: number): void {
  if (!logger || outcome.ok) return;
  const { failures, error } = outcome;
  const message = `${outcome.resource.name}: poll failed (${failures} in a row): ${error instanceof Error ? error.message : String(error)}`;
  if (failures === 1 || failures === threshold) logger.warn(message);
  else logger.debug(message);
}
