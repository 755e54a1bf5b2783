import { type ChangeRequest, prepareRestore } from "../../control/index.js";
import type { ImportGuardStatus } from "../../rules-runtime/index.js";
import type { ControlRestore } from "../../store/index.js";
import type { Rule } from "../file/schema.js";
import { type WindowWriteParts, windowSideEffects } from "./actions.js";
import { claimControl } from "./claim-control.js";
import {
  GUARD_HOLD_MS,
  GUARD_HYSTERESIS_W,
  guardedLimitW,
  type Held,
  heldInPromise,
  LIMIT_COMMAND,
  loweredAmps,
  MIN_AMPS,
  READINGS_OVER,
} from "./import-guard-rules.js";
import type { OpenWindow } from "./window-book.js";

/** One rule's window charging the car, watched. */
interface Watch {
  readonly rule: Rule;
  /** The open window it watches for: another window (or none) ends the watch. */
  readonly windowStart: number;
  readonly uuid: string;
  readonly limitW: number;
  over: number;
  underSince: number | undefined;
  held: Held | undefined;
}

export interface ImportGuardOptions extends WindowWriteParts {
  /** Whether the charger says a car is plugged in (undefined until it has said). */
  readonly plugged: () => boolean | undefined;
}

const kw = (watts: number) => `${(watts / 1000).toFixed(1)} kW`;
const limitKw = (watts: number) => `${Number((watts / 1000).toFixed(2))} kW`;

/**
 * The live guard on the site's import limit while an optimise rule's window charges the car:
 * the plan keeps to the limit only on the house's forecast, so when the measured import goes
 * over it on two readings in a row the guard lowers the charger's current (or stops the
 * charging), through the gate as the rule's, and gives it back once the import has stayed a
 * hysteresis under the limit for the hold time. Its writes join the window's promise to
 * restore, so that the window's end puts back what was there before the window, not the
 * guard's value.
 */
export class ImportGuard {
  private readonly watches = new Map<string, Watch>();

  constructor(private readonly options: ImportGuardOptions) {}

  /** The rule's window sent start-charge to the charger: watch the import while it is open. */
  charging(rule: Rule, uuid: string): void {
    const limitW = guardedLimitW(rule);
    const open = this.options.book.openOf(rule.name);
    if (limitW === undefined || !open) return;
    const known = this.watches.get(rule.name);
    if (known?.windowStart === open.start && known.uuid === uuid) return;
    this.watches.set(rule.name, {
      rule,
      windowStart: open.start,
      uuid,
      limitW,
      over: 0,
      underSince: undefined,
      held: undefined,
    });
  }

  /**
   * A window resumed after a restart whose promise shows it started the car's charging: watched
   * again, with what the guard held back before the restart read from that promise (the
   * current it lowered, or the charging it stopped), so that it can still give it back.
   */
  resume(rule: Rule, controls: readonly ControlRestore[]): void {
    const found = heldInPromise(controls, this.options.now());
    if (!found) return;
    this.charging(rule, found.uuid);
    const watch = this.watches.get(rule.name);
    if (watch) watch.held = found.held;
  }

  /** What the guard holds back now for the rule, if anything. */
  status(rule: string): ImportGuardStatus | undefined {
    const watch = this.watches.get(rule);
    if (!watch?.held || this.openFor(watch) === undefined) return undefined;
    return { since: watch.held.since, message: watch.held.message };
  }

  /** One reading of the grid import, W (0 while exporting). */
  async see(importW: number): Promise<void> {
    for (const [name, watch] of [...this.watches]) {
      const open = this.openFor(watch);
      if (!open) {
        this.watches.delete(name);
        continue;
      }
      if (importW > watch.limitW) {
        watch.underSince = undefined;
        watch.over += 1;
        if (watch.over < READINGS_OVER) continue;
        watch.over = 0;
        await this.cut(watch, open, importW);
        continue;
      }
      watch.over = 0;
      if (!watch.held) continue;
      if (importW >= watch.limitW - GUARD_HYSTERESIS_W) {
        watch.underSince = undefined;
        continue;
      }
      const now = this.options.now();
      watch.underSince ??= now;
      // A release that fails is tried again after another hold, not at every reading.
      if (now - watch.underSince >= GUARD_HOLD_MS && !(await this.release(watch, open, importW)))
        watch.underSince = undefined;
    }
  }

  private openFor(watch: Watch): OpenWindow | undefined {
    const open = this.options.book.openOf(watch.rule.name);
    return open?.start === watch.windowStart ? open : undefined;
  }

  /** The import is over the limit: a lower current where the charger takes one and it is enough, else stop. */
  private async cut(watch: Watch, open: OpenWindow, importW: number): Promise<void> {
    const held = watch.held;
    if (held?.kind === "stopped") return;
    const over = `import ${kw(importW)} over the ${limitKw(watch.limitW)} limit`;
    const excessW = importW - watch.limitW;
    const current = await this.currentAmps(watch.uuid);
    const fromA = held?.kind === "lowered" ? held.fromA : undefined;
    let why = "the charger cannot lower its current";
    if (current !== undefined) {
      const amps = loweredAmps(current.value, excessW, current.min);
      why = `${Math.max(MIN_AMPS, current.min ?? MIN_AMPS)} A would still be over it`;
      if (amps !== undefined && !this.claimLimit(watch, open, current.value, amps))
        why = "another rule holds the charger's current limit";
      else if (amps !== undefined) {
        const message = `${over}: car current ${current.value} A → ${amps} A`;
        if (await this.write(watch, open, limitRequest(watch.uuid, amps), message)) {
          watch.held = {
            kind: "lowered",
            fromA: fromA ?? current.value,
            toA: amps,
            since: this.options.now(),
            message,
          };
          return;
        }
        why = "the lower current was not taken";
      }
    }
    const message = `${over}: car charging stopped (${why})`;
    const stop: ChangeRequest = { kind: "ev-command", uuid: watch.uuid, command: "stop-charge", request: {} };
    if (await this.write(watch, open, stop, message))
      watch.held = { kind: "stopped", fromA, since: this.options.now(), message };
  }

  /**
   * The import has stayed under the limit less the hysteresis for the hold: the car's current
   * (and its charging) back, while the window that wanted it charging is open. False when a write failed.
   */
  private async release(watch: Watch, open: OpenWindow, importW: number): Promise<boolean> {
    const held = watch.held;
    if (!held) return true;
    const under = `import ${kw(importW)}, under ${limitKw(watch.limitW - GUARD_HYSTERESIS_W)} for ${GUARD_HOLD_MS / 60_000} minutes`;
    const uuid = watch.uuid;
    if (held.kind === "lowered") {
      const message = `${under}: car current ${held.toA} A → ${held.fromA} A`;
      if (!(await this.write(watch, open, limitRequest(uuid, held.fromA), message))) return false;
    } else if (this.options.plugged() !== false) {
      if (held.fromA !== undefined && this.claimLimit(watch, open, held.fromA, held.fromA)) {
        const back = `${under}: car current back to ${held.fromA} A`;
        if (!(await this.write(watch, open, limitRequest(uuid, held.fromA), back))) return false;
      }
      const start: ChangeRequest = { kind: "ev-command", uuid, command: "start-charge", request: {} };
      if (!(await this.write(watch, open, start, `${under}: car charging started again`))) return false;
    }
    // (A car unplugged since the stop has nothing to start again.)
    watch.held = undefined;
    watch.underSince = undefined;
    return true;
  }

  /** The charger's current limit in amps, when it takes adjust-charge-power-limit and says it in amps. */
  private async currentAmps(uuid: string): Promise<{ value: number; min: number | undefined } | undefined> {
    const charger = this.options.inventory().evChargers.find((found) => found.uuid === uuid);
    if (!charger?.commands.includes(LIMIT_COMMAND)) return undefined;
    try {
      const limit = await this.options.reads.chargerPowerLimit(uuid);
      // A charger counting in watts is sent amps it may read otherwise: stopping is the safe cut.
      const amps = limit.unit === undefined || limit.unit.toUpperCase() === "A";
      return amps && limit.value !== undefined ? { value: limit.value, min: limit.min } : undefined;
    } catch (error) {
      this.options.logger.warn(
        { uuid, err: (error as Error).message },
        "import guard: the charger's current limit could not be read",
      );
      return undefined;
    }
  }

  /** The charger's current limit for the rule until its window ends; another rule holding it leaves stopping. */
  private claimLimit(watch: Watch, open: OpenWindow, fromA: number, toA: number): boolean {
    const control = `charger:${watch.uuid}:${LIMIT_COMMAND}`;
    const action = `import guard: ${LIMIT_COMMAND} ${toA} A (from ${fromA} A)`;
    if (!claimControl(this.options, watch.rule, control, action, open.end, this.options.now()).granted) return false;
    open.controls.add(control);
    return true;
  }

  /**
   * Through the gate as the rule's, after adding the control to the window's promise to restore
   * (its value from before the window's first write stays what is put back). True when done.
   */
  private async write(watch: Watch, open: OpenWindow, request: ChangeRequest, message: string): Promise<boolean> {
    const { rule } = watch;
    const { events, gate } = this.options;
    const command = request.kind === "ev-command" ? request.command : request.kind;
    const limit = request.kind === "ev-command" ? request.request.limit : undefined;
    const action = `import guard: ${command}${limit === undefined ? "" : ` ${String(limit)} A`}`;
    const control = `charger:${watch.uuid}:${command === LIMIT_COMMAND ? LIMIT_COMMAND : "start-charge"}`;
    const base = { type: "action", rule: rule.name, action, dry_run: false, control } as const;
    const failed = (problem: string): false => {
      events.emit({ ...base, status: "failed", message: `${message}: not done, ${problem}` });
      events.emit({ type: "failure", rule: rule.name, error: problem, message: `${action} failed: ${problem}` });
      return false;
    };
    let undo: (() => void) | undefined;
    try {
      undo = await this.promise(rule, open, request);
    } catch (error) {
      return failed(`what it changes could not be saved for restoring (${(error as Error).message})`);
    }
    let problem: string;
    try {
      const outcome = await gate.apply(request, { via: "rule", name: rule.name });
      if (outcome.ok) {
        events.emit({ ...base, status: outcome.skipped ? "skipped" : "applied", message });
        return true;
      }
      problem = outcome.message;
    } catch (error) {
      problem = (error as Error).message;
    }
    // Not done: the window's promise stays as it was.
    undo?.();
    return failed(problem);
  }

  /**
   * Adds the change to the window's promise to restore (a rule with restore: never has none);
   * returns what takes it out again should the change not be made.
   */
  private async promise(rule: Rule, open: OpenWindow, request: ChangeRequest): Promise<(() => void) | undefined> {
    if (rule.restore !== "after_window" || open.obligation === undefined) return undefined;
    const { obligations, reads, logger } = this.options;
    const promised = obligations.get(open.obligation);
    if (promised?.status !== "open") return undefined;
    const controls = await prepareRestore(
      reads,
      [request],
      promised.restore.controls,
      windowSideEffects(this.options),
      logger.child({ rule: rule.name }),
    );
    obligations.update(promised.id, { restore: { ...promised.restore, controls } });
    return () => obligations.update(promised.id, { restore: promised.restore });
  }
}

function limitRequest(uuid: string, amps: number): ChangeRequest {
  return { kind: "ev-command", uuid, command: LIMIT_COMMAND, request: { limit: amps } };
}
