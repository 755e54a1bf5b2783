import type { ControlRestore, SavedValue } from "../../store/index.js";
import type { Rule } from "../file/schema.js";

// The import guard's numbers and the decisions that need no device (import-guard.ts acts on them).

/** Single phase at 230 V: watts over the limit to amps of charging current. */
export const GUARD_VOLTS = 230;
/** The import must be this far under the limit before the car gets its current back. */
export const GUARD_HYSTERESIS_W = 1000;
/** ... and stay there this long (on the engine's clock). */
export const GUARD_HOLD_MS = 5 * 60_000;
/** Readings over the limit in a row before the guard acts: one may be a spike. */
export const READINGS_OVER = 2;
/** The least current a charger charges at (IEC 61851). */
export const MIN_AMPS = 6;
export const LIMIT_COMMAND = "adjust-charge-power-limit";

/** What the guard did to the car that it has not undone yet. */
export type Held =
  | {
      readonly kind: "lowered";
      readonly fromA: number;
      readonly toA: number;
      readonly since: number;
      readonly message: string;
    }
  | {
      readonly kind: "stopped";
      /** The current from before the guard lowered it first, when it did. */
      readonly fromA: number | undefined;
      readonly since: number;
      readonly message: string;
    };

/** The optimise trigger's import limit, W, when the rule's import guard is on (a car and a limit, import_guard not false). */
export function guardedLimitW(rule: Rule): number | undefined {
  for (const trigger of rule.when) {
    const plan = trigger.optimise;
    if (plan?.car !== undefined && plan.import_limit_kw !== undefined && plan.import_guard !== false)
      return plan.import_limit_kw * 1000;
  }
  return undefined;
}

/**
 * The current that brings the import back under the limit, amps: the current now less the
 * excess at 230 V single phase, rounded down; undefined when that is under the charger's
 * minimum (even the minimum would leave the import over the limit).
 */
export function loweredAmps(currentA: number, excessW: number, minA = MIN_AMPS): number | undefined {
  const amps = Math.floor(currentA - excessW / GUARD_VOLTS);
  return amps >= Math.max(MIN_AMPS, minA) ? amps : undefined;
}

/**
 * What a window's promise to restore shows the guard held back before a restart: the charger
 * the window started, and a current under the one from before the window (the window itself
 * writes none) or a stop-charge (the window itself only starts). Undefined when the window never
 * started the car.
 */
export function heldInPromise(
  controls: readonly ControlRestore[],
  now: number,
): { readonly uuid: string; readonly held: Held | undefined } | undefined {
  const wrote = controls.find((entry) => chargerCommand(entry.wrote, "start-charge", "stop-charge"))?.wrote;
  if (wrote?.kind !== "ev-command") return undefined;
  const limit = controls.find((entry) => chargerCommand(entry.wrote, LIMIT_COMMAND));
  const before = amps(limit?.before);
  const after = amps(limit?.wrote);
  const lowered = before !== undefined && after !== undefined && after < before ? { before, after } : undefined;
  if (wrote.command === "stop-charge")
    return {
      uuid: wrote.uuid,
      held: {
        kind: "stopped",
        fromA: lowered?.before,
        since: now,
        message: "car charging stopped by the import guard before a restart",
      },
    };
  if (!lowered) return { uuid: wrote.uuid, held: undefined };
  return {
    uuid: wrote.uuid,
    held: {
      kind: "lowered",
      fromA: lowered.before,
      toA: lowered.after,
      since: now,
      message: `car current held at ${lowered.after} A by the import guard before a restart`,
    },
  };
}

/** Whether a saved value is one of these commands to a charger. */
function chargerCommand(saved: SavedValue | undefined, ...commands: string[]): boolean {
  return saved?.kind === "ev-command" && commands.includes(saved.command);
}

/** The amps a saved adjust-charge-power-limit holds. */
function amps(saved: SavedValue | undefined): number | undefined {
  const limit = saved?.kind === "ev-command" ? saved.request.limit : undefined;
  return typeof limit === "number" ? limit : undefined;
}
