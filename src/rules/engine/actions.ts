import {
  type DeviceReads,
  deviceSideEffects,
  prepareRestore,
  restorePlan,
  type SideEffects,
} from "../../control/index.js";
import type { Logger } from "../../log/log.js";
import type { RuleActionResult, RuleLastRun, RuleRunResult } from "../../rules-runtime/index.js";
import type { RuleObligation, RuleObligations } from "../../store/index.js";
import type { Inventory } from "../../telemetry/index.js";
import type { Rule } from "../file/schema.js";
import type { TemplateContext } from "../file/templates.js";
import { claimControl } from "./claim-control.js";
import { type Intent, intentOf } from "./intents.js";
import type { RulesGate } from "./options.js";
import type { RuleEvents } from "./rule-events.js";
import type { OpenWindow, WindowBook } from "./window-book.js";

/** What writes a rule's window to its devices needs: the rule actions' and the import guard's. */
export interface WindowWriteParts {
  readonly gate: RulesGate;
  /** What a device holds now: saved before a change, compared before putting it back. */
  readonly reads: DeviceReads;
  readonly obligations: RuleObligations;
  /** The devices as last listed. */
  readonly inventory: () => Inventory;
  readonly book: WindowBook;
  readonly events: RuleEvents;
  readonly logger: Logger;
  readonly now: () => number;
}

/** What a change writes besides its own control (timed-export's Eco mode), on the devices as last listed. */
export function windowSideEffects(parts: Pick<WindowWriteParts, "inventory" | "reads">): SideEffects {
  const pathOf = parts.reads.pathOf;
  return deviceSideEffects(
    (serial) => {
      const inventory = parts.inventory();
      return (
        inventory.inverters.find((device) => device.serial === serial) ??
        inventory.ems.find((device) => device.serial === serial)
      );
    },
    pathOf && ((serial) => pathOf.call(parts.reads, serial)),
  );
}

export interface RuleActionsOptions extends WindowWriteParts {
  /** True once the engine is stopping: a restore cut short then stays promised. */
  readonly stopping: () => boolean;
  readonly dryRun: (rule: Rule) => boolean;
  /** A rule's start-charge went through the gate (the import guard watches the car's window from then). */
  readonly chargingStarted?: (rule: Rule, uuid: string) => void;
}

export interface ActOutcome {
  readonly result: RuleRunResult;
  /** An action failed while the window was open: the window should close (and restore). */
  readonly failedInWindow: boolean;
}

/**
 * Sends a rule's actions through the gate: conflicts first (the window book's claims), then the
 * dry run or the promise to restore, then each action in order until one fails. Also keeps that
 * promise (restore) and each rule's last run.
 */
export class RuleActions {
  private readonly lastRuns = new Map<string, RuleLastRun>();

  constructor(private readonly options: RuleActionsOptions) {}

  lastRun(rule: string): RuleLastRun | undefined {
    return this.lastRuns.get(rule);
  }

  /** Notes a run (or a skip) of the rule. */
  record(rule: string, ok: boolean, message: string): void {
    this.lastRuns.set(rule, { at: this.options.now(), ok, message });
  }

  /** The rule's actions with the templates filled from `context` and their devices chosen; nothing is sent. */
  intents(rule: Rule, context: TemplateContext): Intent[] {
    const inventory = this.options.inventory();
    return rule.do.map((action) => intentOf(action, context, rule.name, inventory));
  }

  isDryRun(rule: Rule): boolean {
    return this.options.dryRun(rule);
  }

  /** Acts with the templates filled from `context`; `open` is the rule's open window the actions belong to, if any. */
  async act(rule: Rule, open: OpenWindow | undefined, context: TemplateContext): Promise<ActOutcome> {
    const intents = this.intents(rule, context);
    const results: RuleActionResult[] = [];
    // Conflicts first, so that the snapshot covers only what this rule will really change.
    const granted = this.claim(rule, intents, open ? open.end : this.options.now(), open, results);
    if (this.options.dryRun(rule)) return { result: this.dryRun(rule, granted, results), failedInWindow: false };
    if (open && rule.restore === "after_window") {
      const problem = await this.promiseRestore(rule, open, granted);
      if (problem !== undefined)
        return { result: this.finish(rule, false, false, problem, results), failedInWindow: false };
    }
    for (const intent of granted) {
      const result = await this.send(rule, intent);
      results.push(result);
      if (!result.ok) {
        const message = `${intent.text} failed: ${result.message}`;
        this.options.events.emit({ type: "failure", rule: rule.name, error: result.message, message });
        return { result: this.finish(rule, false, false, message, results), failedInWindow: open !== undefined };
      }
    }
    const sent = results.filter((r) => !r.skipped).length;
    return {
      result: this.finish(rule, true, false, `${sent} of ${results.length} action(s) sent`, results),
      failedInWindow: false,
    };
  }

  /** A result without acting (a window rule run now with no window planned). */
  refuse(rule: Rule, message: string): RuleRunResult {
    return this.finish(rule, false, false, message, []);
  }

  /** Keeps the promise: puts back what the window changed, and says how it went. */
  async restore(obligation: RuleObligation, why: string): Promise<void> {
    const { reads, gate, obligations, events, logger } = this.options;
    const report = await restorePlan(reads, gate, { via: "rule", name: obligation.rule }, obligation.restore);
    if (!report.ok && this.options.stopping()) {
      // Cut short by the stop (its calls are aborted): the promise stays open in the store, and
      // the next start puts things back.
      logger.warn(
        { rule: obligation.rule, message: report.message },
        "restore interrupted by the stop; the next start will do it",
      );
      return;
    }
    obligations.finish(obligation.id, report.ok ? "restored" : "failed", this.options.now(), report.message);
    events.emit({
      type: "restore",
      rule: obligation.rule,
      ok: report.ok,
      method: report.method,
      message: `${why}: ${report.message}`,
    });
  }

  /** The intents the rule may send; those that lose their control are reported and left out. */
  private claim(
    rule: Rule,
    intents: readonly Intent[],
    until: number,
    open: OpenWindow | undefined,
    results: RuleActionResult[],
  ): Intent[] {
    const now = this.options.now();
    const granted: Intent[] = [];
    for (const intent of intents) {
      if (intent.kind !== "change") {
        granted.push(intent);
        continue;
      }
      const answer = claimControl(this.options, rule, intent.control, intent.text, until, now);
      if (!answer.granted) {
        results.push({
          action: intent.text,
          ok: true,
          skipped: true,
          message: `lost ${intent.control} to ${answer.holder.rule}`,
        });
        continue;
      }
      open?.controls.add(intent.control);
      granted.push(intent);
    }
    return granted;
  }

  private dryRun(rule: Rule, granted: readonly Intent[], results: RuleActionResult[]): RuleRunResult {
    for (const intent of granted) {
      this.options.events.emit({
        type: "action",
        rule: rule.name,
        status: "dry-run",
        action: intent.text,
        dry_run: true,
        ...controlOf(intent),
        message: `dry run: would ${intent.text}`,
      });
      results.push({ action: intent.text, ok: true, skipped: true, message: "dry run: not sent" });
    }
    return this.finish(rule, true, true, `dry run: ${granted.length} action(s) logged, nothing sent`, results);
  }

  /**
   * Saves what the window's changes will overwrite, per control, and records the promise to put
   * it back (or adds to the window's promise); returns why nothing may be sent when that fails.
   */
  private async promiseRestore(rule: Rule, open: OpenWindow, granted: readonly Intent[]): Promise<string | undefined> {
    const requests = granted.flatMap((intent) => (intent.kind === "change" ? [intent.request] : []));
    if (requests.length === 0) return undefined;
    const { reads, obligations, logger } = this.options;
    try {
      const promised = open.obligation === undefined ? undefined : obligations.get(open.obligation);
      const controls = await prepareRestore(
        reads,
        requests,
        promised?.restore.controls ?? [],
        windowSideEffects(this.options),
        logger.child({ rule: rule.name }),
      );
      if (promised) {
        obligations.update(promised.id, { restore: { ...promised.restore, controls } });
        return undefined;
      }
      open.obligation = obligations.open({
        rule: rule.name,
        createdAt: this.options.now(),
        windowStart: open.start,
        windowEnd: open.end,
        restore: { snapshots: [], controls },
      }).id;
      return undefined;
    } catch (error) {
      const message = `nothing sent: what the rule changes could not be saved for restoring (${(error as Error).message})`;
      this.options.events.emit({ type: "failure", rule: rule.name, error: message, message });
      return message;
    }
  }

  private async send(rule: Rule, intent: Intent): Promise<RuleActionResult> {
    const base = { rule: rule.name, action: intent.text, dry_run: false, ...controlOf(intent) } as const;
    this.options.events.emit({ type: "action", status: "planned", message: `about to ${intent.text}`, ...base });
    let result: RuleActionResult;
    try {
      result = await this.perform(rule, intent);
    } catch (error) {
      result = { action: intent.text, ok: false, skipped: false, message: (error as Error).message };
    }
    const status = !result.ok ? "failed" : result.skipped ? "skipped" : "applied";
    this.options.events.emit({ type: "action", status, message: result.message, ...base });
    const request = intent.kind === "change" ? intent.request : undefined;
    if (result.ok && request?.kind === "ev-command" && request.command === "start-charge")
      this.options.chargingStarted?.(rule, request.uuid);
    return result;
  }

  private async perform(rule: Rule, intent: Intent): Promise<RuleActionResult> {
    const text = intent.text;
    const requester = { via: "rule", name: rule.name } as const;
    const gate = this.options.gate;
    switch (intent.kind) {
      case "invalid":
        return { action: text, ok: false, skipped: false, message: intent.problem };
      case "change": {
        const outcome = await gate.apply(intent.request, requester);
        return { action: text, ok: outcome.ok, skipped: outcome.skipped, message: outcome.message };
      }
      case "notify": {
        const outcome = await gate.act({ kind: "notification", notification: intent.notification }, requester);
        return { action: text, ok: outcome.ok, skipped: false, message: outcome.message };
      }
      case "snapshot": {
        const action = { kind: "snapshot", op: intent.op, serial: intent.serial, name: intent.name } as const;
        const outcome = await gate.act(action, requester);
        return { action: text, ok: outcome.ok, skipped: false, message: outcome.message };
      }
    }
  }

  private finish(
    rule: Rule,
    ok: boolean,
    dryRun: boolean,
    message: string,
    actions: RuleActionResult[],
  ): RuleRunResult {
    this.record(rule.name, ok, message);
    return { name: rule.name, ok, dryRun, message, actions };
  }
}

function controlOf(intent: Intent): { control?: string } {
  return intent.kind === "change" ? { control: intent.control } : {};
}
