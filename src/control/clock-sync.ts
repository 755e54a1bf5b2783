import type { Logger } from "../log/log.js";
import type { ClockControl } from "../sources/index.js";
import type { AuditEntryInput, AuditLog } from "../store/index.js";
import { type Clock, offsetMs } from "../time/index.js";
import { auditUnwritable, OUTCOME_PENDING } from "./audit-first.js";
import type { ChangeOutcome, Requester } from "./change.js";
import type { WriteBudget } from "./write-budget.js";

/** Why a clock is set: a drift over the limit, the zone's GMT/BST change, or someone asked (button, bridge request). */
export type ClockSyncReason = "drift" | "zone-change" | "asked";

export interface ClockSyncRequest {
  readonly serial: string;
  readonly reason: ClockSyncReason;
  /** The house's zone: the clock is set to its wall time now. */
  readonly timeZone: string;
  /** The drift that led to it, seconds, when known. */
  readonly driftSeconds?: number;
}

export interface ClockSyncDeps {
  readonly clocks: ClockControl | undefined;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly writeBudget?: WriteBudget;
}

/** The audit's action for a clock set: its own kind, never a setting's. */
export const CLOCK_SYNC_ACTION = "clock:sync";
/** The clock's six registers, each one write against the budget. */
const CLOCK_WRITES = 6;
/** How far the clock may read back from the house's time (a write takes a moment): 5 s. */
const READ_BACK_TOLERANCE_S = 5;

const refusedOutcome = (message: string): ChangeOutcome => ({
  ok: false,
  verified: false,
  skipped: false,
  refused: true,
  message,
});

/**
 * Sets one device's clock to the house's wall time now, the one way a write reaches its clock
 * registers: audited under its own action (begun before anything is sent), counted against the
 * device's daily write budget, and read back. Never throws. The gate runs it in the device's turn.
 */
export async function syncDeviceClock(
  deps: ClockSyncDeps,
  request: ClockSyncRequest,
  requester: Requester,
  signal?: AbortSignal,
): Promise<ChangeOutcome> {
  const houseWallNow = (): number => {
    const now = deps.clock.now();
    return now + offsetMs(now, request.timeZone);
  };
  const entry = (outcome: ChangeOutcome): AuditEntryInput => ({
    at: deps.clock.now(),
    source: requester.via,
    ...(requester.name === undefined ? {} : { requesterName: requester.name }),
    targetKind: "inverter",
    target: request.serial,
    action: CLOCK_SYNC_ACTION,
    request: {
      reason: request.reason,
      time_zone: request.timeZone,
      ...(request.driftSeconds === undefined ? {} : { drift_s: request.driftSeconds }),
    },
    ok: outcome.ok,
    verified: outcome.verified,
    skipped: outcome.skipped,
    message: outcome.message,
  });
  const pending: ChangeOutcome = { ok: false, verified: false, skipped: false, message: OUTCOME_PENDING };
  let row: number;
  try {
    row = deps.audit.begin(entry(pending));
  } catch (error) {
    const outcome = auditUnwritable(error);
    deps.logger.warn({ target: request.serial, action: CLOCK_SYNC_ACTION }, outcome.message);
    return outcome;
  }
  const outcome = await decide(deps, request, requester, houseWallNow, signal);
  const log = outcome.ok ? deps.logger.info.bind(deps.logger) : deps.logger.warn.bind(deps.logger);
  log({ target: request.serial, action: CLOCK_SYNC_ACTION, reason: request.reason }, outcome.message);
  try {
    deps.audit.settle(row, entry(outcome));
  } catch (error) {
    deps.logger.error({ err: error, target: request.serial }, "the audit log could not record this clock sync");
  }
  return outcome;
}

async function decide(
  deps: ClockSyncDeps,
  request: ClockSyncRequest,
  requester: Requester,
  houseWallNow: () => number,
  signal?: AbortSignal,
): Promise<ChangeOutcome> {
  const { serial } = request;
  if (!deps.clocks?.carries(serial))
    return refusedOutcome(
      `the clock of ${serial} can only be set over the LAN, and no dongle under local: answers for it: set it on the inverter's own screen`,
    );
  const overBudget = deps.writeBudget?.spend(serial, CLOCK_WRITES, requester.restore === true);
  if (overBudget) return refusedOutcome(overBudget);
  const answer = await deps.clocks.setClock(serial, houseWallNow, signal);
  switch (answer.outcome) {
    case "refused":
      return refusedOutcome(`the clock of ${serial} was not set: ${answer.reason}`);
    case "open":
      return {
        ok: false,
        verified: false,
        skipped: false,
        mayHaveApplied: true,
        message: `the clock of ${serial} may or may not have been set: ${answer.reason}`,
      };
    case "done": {
      const off = Math.round((answer.value - houseWallNow()) / 1000);
      const shown = new Date(answer.value).toISOString().slice(0, 19).replace("T", " ");
      if (Math.abs(off) > READ_BACK_TOLERANCE_S)
        return {
          ok: false,
          verified: false,
          skipped: false,
          mayHaveApplied: true,
          message: `the clock of ${serial} was written but reads back ${shown}, ${off} s from the house's time`,
        };
      return {
        ok: true,
        verified: true,
        skipped: false,
        value: shown,
        message: `set the clock of ${serial} to the house's time (${shown}, ${request.timeZone})${reasonText(request)}`,
      };
    }
  }
}

function reasonText(request: ClockSyncRequest): string {
  const drift = request.driftSeconds === undefined ? "" : `: it was ${request.driftSeconds} s off`;
  switch (request.reason) {
    case "zone-change":
      return ` at the zone's change of summer time${drift}`;
    case "drift":
      return drift;
    case "asked":
      return `, as asked${drift}`;
  }
}
