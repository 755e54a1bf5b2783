import { setMaxListeners } from "node:events";
import { pino } from "pino";
import type { Logger } from "../log/log.js";
import type { ControlReads, DeviceControl } from "../sources/index.js";
import type { AuditEntryInput, AuditLog, LocalSnapshots } from "../store/index.js";
import { type Clock, localMinuteOfDay } from "../time/index.js";
import { reservedSnapshotName } from "../vocabulary/index.js";
import { actionAuditEntry, auditEntry, targetOf } from "./audit-entry.js";
import { auditUnwritable, OUTCOME_PENDING } from "./audit-first.js";
import type { ChangeOutcome, ChangeRequest, Requester, SettingValue } from "./change.js";
import type { ChangeApplied } from "./change-applied.js";
import { type ClockSyncRequest, syncDeviceClock } from "./clock-sync.js";
import type { ChangeContext, WriteTiming } from "./context.js";
import { type ControlReading, ControlState, type ControlValues } from "./control-state.js";
import type { DeviceAction, DeviceActionOutcome } from "./device-action.js";
import { actionTarget } from "./device-action.js";
import { runDeviceAction } from "./device-action-run.js";
import type { ControlDevices, ControlledInverter } from "./devices.js";
import {
  checkTarget,
  keepTarget,
  keptTarget,
  TARGET_FIELD,
  TARGET_PRESET,
  targetNow,
  targetProblem,
} from "./discharge-target.js";
import { sendEvCommand } from "./ev-command-change.js";
import { KeyedQueue } from "./keyed-queue.js";
import { deleteLocalSnapshot, restoreLocalSnapshot, takeLocalSnapshot } from "./local-snapshot.js";
import { failed, refused, skipped, succeeded } from "./outcome.js";
import { changeHeldPause, pauseValues } from "./pause-change.js";
import {
  type Enforced,
  emulatesPause,
  enforcePause,
  heldPause,
  holdLimitWhilePaused,
  holdsLimits,
  PAUSE_PRESET,
  type PauseDeps,
  pausedNow,
  shownPause,
  withTarget,
} from "./pause-emulation.js";
import { changePreset } from "./preset-change.js";
import { findPreset } from "./preset-rules.js";
import { changeSetting } from "./setting-change.js";
import { checkSetting } from "./setting-rules.js";
import { toStep } from "./steps.js";
import type { WriteBudget } from "./write-budget.js";

export interface ControlGateDeps {
  /** The path that writes, runs actions and reads back: the gate is its only holder. */
  readonly control: DeviceControl;
  readonly audit: AuditLog;
  readonly devices: ControlDevices;
  readonly logger?: Logger;
  /** The daemon's one clock: the audit's times, the control values' age, the waits for late answers. */
  readonly clock: Clock;
  /** How long a known control value is trusted to skip a write; 10 minutes by default. */
  readonly cacheMaxAgeMs?: number;
  /**
   * After a write's answer is later than the client's timeout, how long reading back goes on
   * while the write may still land; 60 s by default.
   */
  readonly settleMs?: number;
  /**
   * How long a write's request stays open for its answer, at least the client's timeout plus the
   * settle time; 2 minutes by default. The device takes no other change meanwhile.
   */
  readonly lateAnswerMs?: number;
  /**
   * Told once per change request the gate finished (applied, skipped, refused or failed), when
   * its outcome is given and recorded. A listener that throws is logged; the change stands.
   */
  readonly onApplied?: (event: ChangeApplied) => void;
  /** The daily write budget per device; without one, writes are not counted. */
  readonly writeBudget?: WriteBudget;
  /**
   * Where the daemon keeps its own snapshots, for devices whose changes go over the LAN; without
   * it, snapshots of such a device are refused.
   */
  readonly localSnapshots?: LocalSnapshots;
  /** The house's time zone, for the slots the daemon holds (an emulated pause's); UTC without it. */
  readonly timeZone?: () => string;
}

/** A command refused before it could become a change request: its payload, device or control was wrong. */
export interface Refusal {
  /** inverter, ev_charger, smart_device; `device` when the device itself is unknown. */
  readonly targetKind: string;
  /** Serial or uuid, as the command named it. */
  readonly target: string;
  /** e.g. `set:<entity>` for a Home Assistant command, `preset:<id>` for a bridge action. */
  readonly action: string;
  /** What was asked, short (a payload is capped by the caller). */
  readonly request: Readonly<Record<string, unknown>>;
  /** Why, in the words the requester is answered with. */
  readonly reason: string;
}

export interface ApplyOptions {
  readonly signal?: AbortSignal;
}

const DEFAULT_CACHE_MAX_AGE_MS = 10 * 60_000;
const DEFAULT_SETTLE_MS = 60_000;
const DEFAULT_LATE_ANSWER_MS = 120_000;
/** Whether Timed Export lists the discharge target the daemon holds (lan-presets.ts: a model without HR 272). */
const listsHeldTarget = (presets: ControlledInverter["presets"]): boolean =>
  findPreset(presets, TARGET_PRESET)?.parameters[TARGET_FIELD] !== undefined;

/** Who holds the discharge at the discharge target, in the audit log. */
export const TARGET_REQUESTER: Requester = { via: "daemon", name: "discharge-target" };

/** The cloud's limit on a snapshot's name, kept for the daemon's own. */
const SNAPSHOT_NAME_MAX = 32;

/**
 * The one gate for every change to a device: validate against the device's own rules, skip
 * what would change nothing, send once, read back when the answer leaves it open, and record
 * the outcome in the audit log. One change at a time per device.
 */
export class ControlGate {
  private readonly control: DeviceControl;
  private readonly audit: AuditLog;
  private readonly devices: ControlDevices;
  private readonly logger: Logger;
  private readonly clock: Clock;
  private readonly state: ControlState;
  private readonly onApplied: ((event: ChangeApplied) => void) | undefined;
  private readonly writeBudget: WriteBudget | undefined;
  private readonly localSnapshots: LocalSnapshots | undefined;
  private readonly timeZone: () => string;
  /** Devices whose limits the held pause is writing now (in their turn of the queue). */
  private readonly enforcing = new Set<string>();
  /** Devices whose discharge the discharge target holds paused until the slot ends: the slot, as "HH:mm-HH:mm". */
  private readonly targetHolds = new Map<string, string>();
  private readonly queue = new KeyedQueue();
  private readonly timing: WriteTiming;
  /** Aborted by stop(): ends writes still waiting for a late answer. */
  private readonly stopping = new AbortController();

  constructor(deps: ControlGateDeps) {
    this.control = deps.control;
    this.audit = deps.audit;
    this.devices = deps.devices;
    this.logger = (deps.logger ?? pino({ enabled: false })).child({ module: "control" });
    this.clock = deps.clock;
    this.onApplied = deps.onApplied;
    this.writeBudget = deps.writeBudget;
    this.localSnapshots = deps.localSnapshots;
    this.timeZone = deps.timeZone ?? (() => "UTC");
    this.state = new ControlState(() => this.clock.now(), deps.cacheMaxAgeMs ?? DEFAULT_CACHE_MAX_AGE_MS);
    // Every change's requests listen to it, one device's after another's.
    setMaxListeners(0, this.stopping.signal);
    const answerMs = this.control.answerMs;
    const settleMs = deps.settleMs ?? DEFAULT_SETTLE_MS;
    this.timing = {
      answerMs,
      settleMs,
      lateAnswerMs: Math.max(deps.lateAnswerMs ?? DEFAULT_LATE_ANSWER_MS, answerMs + settleMs),
    };
  }

  /**
   * Never throws for device or validation problems: every path ends in an outcome and one audit
   * row, and a second row when a write's answer comes after the outcome was given. The row is
   * written before anything is sent; when it cannot be, the change is refused.
   */
  apply(request: ChangeRequest, requester: Requester, options: ApplyOptions = {}): Promise<ChangeOutcome> {
    const target = targetOf(request);
    return this.queue.runHolding(`${target.kind}:${target.id}`, () => this.applyNow(request, requester, options));
  }

  /** One change, audited and told, in the device's turn of the queue (held by the caller). */
  private async applyNow(
    request: ChangeRequest,
    requester: Requester,
    options: ApplyOptions,
  ): Promise<{ value: ChangeOutcome; hold: Promise<void> | undefined }> {
    const target = targetOf(request);
    const row = this.begin(auditEntry(request, requester, pending, this.clock.now()));
    if (typeof row !== "number") {
      this.tell({ at: this.clock.now(), request, requester, outcome: row });
      return { value: row, hold: undefined };
    }
    let hold: Promise<void> | undefined;
    const lateAnswer = (late: Promise<ChangeOutcome>) => {
      this.logger.warn(
        { target: target.id, action: target.action },
        "a change is still in flight: its answer will be recorded when it comes, and this device takes no other change before then",
      );
      hold = late.then(
        (outcome) => {
          this.record(request, requester, outcome);
        },
        (error: unknown) => this.logger.error({ err: error }, "the late answer of a change could not be read"),
      );
    };
    const outcome = await this.decide(request, requester, options.signal, lateAnswer);
    const at = this.record(request, requester, outcome, row);
    this.tell({ at, request, requester, outcome });
    return { value: outcome, hold };
  }

  /**
   * Records a command refused before it reached the gate as a change (a bad payload, an unknown
   * device or control), so that the audit log holds every outcome. Nothing is sent.
   */
  refuse(refusal: Refusal, requester: Requester): ChangeOutcome {
    const outcome: ChangeOutcome = {
      ok: false,
      verified: false,
      skipped: false,
      refused: true,
      message: refusal.reason,
    };
    this.write(
      {
        at: this.clock.now(),
        source: requester.via,
        ...(requester.name === undefined ? {} : { requesterName: requester.name }),
        targetKind: refusal.targetKind,
        target: refusal.target,
        action: refusal.action,
        request: JSON.parse(JSON.stringify(refusal.request)) as AuditEntryInput["request"],
        ok: false,
        verified: false,
        skipped: false,
        message: refusal.reason,
      },
      outcome,
    );
    return outcome;
  }

  /**
   * A device action (a snapshot taken, restored or deleted, a preset profile created, updated,
   * applied or deleted, a notification, a smart device's data point): checked against the
   * account, queued with the device's other changes, sent, and recorded in the audit log with
   * its answer. Never throws.
   */
  act(action: DeviceAction, requester: Requester, options: ApplyOptions = {}): Promise<DeviceActionOutcome> {
    const target = actionTarget(action);
    return this.queue.run(`${target.kind}:${target.id}`, async () => {
      const row = this.begin(actionAuditEntry(action, requester, pending, this.clock.now()));
      if (typeof row !== "number") {
        this.tell({ at: this.clock.now(), action, requester, outcome: row });
        return { ok: false, refused: true, message: row.message };
      }
      const outcome = await this.decideAction(action, requester, options.signal);
      const entry = actionAuditEntry(action, requester, outcome, this.clock.now());
      const asChange: ChangeOutcome = {
        ok: outcome.ok,
        verified: false,
        skipped: false,
        ...(outcome.refused ? { refused: true } : {}),
        message: outcome.message,
      };
      this.write(entry, asChange, row);
      this.tell({ at: entry.at, action, requester, outcome: asChange });
      return outcome;
    });
  }

  /**
   * Sets a device's clock to the house's time (clock-sync.ts): audited as `clock:sync`, counted,
   * read back, in the device's turn of the queue. The one write that reaches the clock registers.
   */
  syncClock(request: ClockSyncRequest, requester: Requester, options: ApplyOptions = {}): Promise<ChangeOutcome> {
    return this.queue.run(`inverter:${request.serial}`, () =>
      syncDeviceClock(
        {
          clocks: this.control.clocks,
          audit: this.audit,
          clock: this.clock,
          logger: this.logger,
          ...(this.writeBudget ? { writeBudget: this.writeBudget } : {}),
        },
        request,
        requester,
        options.signal ?? this.stopping.signal,
      ),
    );
  }

  /** Resolves once every change, including a write waiting for its late answer, has finished. */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  /**
   * Stops: a write still waiting for its answer is given up (recorded as cancelled, may or may
   * not have happened), and later changes are cancelled. Resolves when all have been recorded.
   */
  stop(): Promise<void> {
    this.stopping.abort();
    return this.queue.idle();
  }

  /**
   * A control value as read from the device elsewhere (Home Assistant's reads of control values,
   * a caller): it goes into the one record of current values, which skips unchanged writes and
   * is what Home Assistant shows.
   */
  remember(reading: ControlReading): void {
    this.state.remember(reading);
  }

  /**
   * Reads of the control values, for a restore's before and after: reading changes nothing, so
   * it needs no queue or audit; writing stays the gate's.
   */
  get reads(): ControlReads {
    const { control, localSnapshots: snapshots } = this;
    if (!snapshots) return control;
    // A pause the daemon holds reads as the mode and slot it holds, with any limit at 0 shown paused.
    const readPreset: ControlReads["inverters"]["readPreset"] = async (serial, preset, call) => {
      const values = await control.inverters.readPreset(serial, preset, call);
      if (!holdsLimits(control, serial)) return values;
      if (preset === PAUSE_PRESET && emulatesPause(control, serial))
        return shownPause(heldPause(snapshots, serial), Number(values.mode ?? 0));
      // The discharge target the daemon holds, where the LAN lists it (lan-presets.ts) without a register.
      if (preset === TARGET_PRESET && TARGET_FIELD in values)
        return {
          ...values,
          [TARGET_FIELD]: (await targetNow(control, snapshots, serial, this.stopping.signal)) ?? null,
        };
      return values;
    };
    return {
      ...control,
      inverters: { readSetting: (...args) => control.inverters.readSetting(...args), readPreset },
    };
  }

  /**
   * Whether the daemon keeps a snapshot of this name for the device, when its changes go over
   * the LAN; undefined when they go through the cloud, which keeps its own.
   */
  localSnapshotExists(serial: string, name: string): boolean | undefined {
    if (this.control.pathOf(serial) !== "local") return undefined;
    return this.localSnapshots?.get(serial, name) !== undefined;
  }

  /** The daily write budget, when there is one: its limit and each device's writes today. */
  writesToday(): { readonly budget: number; readonly devices: Readonly<Record<string, number>> } | undefined {
    if (!this.writeBudget) return undefined;
    return { budget: this.writeBudget.limit, devices: this.writeBudget.countsToday() };
  }

  /** The device's current control values (serial or uuid), as read or applied. */
  controlValues(device: string): ControlValues {
    return this.state.values(device);
  }

  private async decide(
    request: ChangeRequest,
    requester: Requester,
    signal: AbortSignal | undefined,
    lateAnswer: (late: Promise<ChangeOutcome>) => void,
  ): Promise<ChangeOutcome> {
    if (signal?.aborted || this.stopping.signal.aborted) return failed("Cancelled before anything was sent");
    const context: ChangeContext = {
      control: this.control,
      state: this.state,
      logger: this.logger,
      signal: signal ? AbortSignal.any([signal, this.stopping.signal]) : this.stopping.signal,
      timing: this.timing,
      clock: this.clock,
      lateAnswer,
      spend: (serial, writes) => this.writeBudget?.spend(serial, writes, requester.restore === true),
    };
    try {
      if (request.kind === "ev-command") {
        const charger = this.devices.charger(request.uuid);
        if (!charger) return refused(`EV charger ${request.uuid} is not one this account has`);
        return await sendEvCommand(context, charger, request.command, request.request);
      }
      const inverter = this.devices.inverter(request.serial);
      if (!inverter) return refused(`inverter ${request.serial} is not one this account has`);
      if (!inverter.controllable) return notControllable(inverter);
      // Only a device whose pause the daemon holds waits on it (no extra turn for the others).
      const deps = this.pauseDeps(inverter.serial, requester, context.signal ?? this.stopping.signal);
      const held = deps && (await this.heldPauseChange(request, inverter, context, deps));
      const outcome =
        held ??
        (request.kind === "setting"
          ? await changeSetting(context, inverter, request.settingId, request.value)
          : await changePreset(context, inverter, request.preset, request.fields));
      if (!outcome.skipped && !outcome.refused)
        this.state.distrustPresets(request.serial, request.kind === "preset" ? request.preset : undefined);
      const exporting = request.kind === "preset" && findPreset(inverter.presets, request.preset)?.identifier;
      if (deps && exporting === TARGET_PRESET && outcome.ok && held === undefined)
        await this.rememberHeldTarget(inverter);
      return outcome;
    } catch (error) {
      // Each change handles its own cloud errors; reaching this is a bug, reported rather than thrown.
      this.logger.error({ err: error }, "unexpected error in the control gate");
      return failed(`Unexpected error: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async decideAction(
    action: DeviceAction,
    requester: Requester,
    signal: AbortSignal | undefined,
  ): Promise<DeviceActionOutcome> {
    if (signal?.aborted || this.stopping.signal.aborted)
      return { ok: false, message: "Cancelled before anything was sent" };
    const stop = this.stopping.signal;
    const both = signal ? AbortSignal.any([signal, stop]) : stop;
    if (action.kind === "charger" && !this.devices.charger(action.uuid))
      return refusedAction(`EV charger ${action.uuid} is not one this account has`);
    if (action.kind === "snapshot") {
      // The daemon's own snapshots (a pause it holds) are put back by it alone, on either path.
      const reserved = reservedSnapshotName(action.name);
      if (reserved) return refusedAction(reserved);
    }
    if (action.kind === "snapshot" || action.kind === "preset-profile") {
      const inverter = this.devices.inverter(action.serial);
      if (!inverter) return refusedAction(`inverter ${action.serial} is not one this account has`);
      if (!inverter.controllable) return refusedAction(notControllableReason(inverter));
      if (action.kind === "snapshot" && this.control.pathOf(action.serial) === "local")
        return this.localSnapshot(action, inverter, requester, both);
    }
    return runDeviceAction(this.control, action, both);
  }

  /**
   * Pause Battery where the daemon holds it (pause-emulation.ts): a change of the pause, or of a
   * battery limit while its side is paused (kept for after the pause, not written). Undefined for
   * every other change, which takes the ordinary path.
   */
  private async heldPauseChange(
    request: Extract<ChangeRequest, { kind: "setting" | "preset" }>,
    inverter: ControlledInverter,
    context: ChangeContext,
    deps: PauseDeps,
  ): Promise<ChangeOutcome | undefined> {
    if (request.kind === "preset") {
      const identifier = findPreset(inverter.presets, request.preset)?.identifier;
      if (identifier === TARGET_PRESET && TARGET_FIELD in request.fields)
        return this.keepDischargeTarget(request, inverter, context, deps.snapshots);
      if (identifier !== PAUSE_PRESET || !emulatesPause(this.control, inverter.serial)) return undefined;
      const outcome = await changeHeldPause(deps, inverter, request.preset, request.fields);
      if (outcome.value !== undefined && typeof outcome.value === "object" && outcome.value !== null)
        this.state.remember({
          kind: "preset",
          serial: inverter.serial,
          preset: PAUSE_PRESET,
          values: outcome.value as Readonly<Record<string, unknown>>,
        });
      return outcome;
    }
    // The pause's own writes of the limits are not held back by it.
    if (this.enforcing.has(inverter.serial)) return undefined;
    const descriptor = inverter.settings.find((setting) => setting.id === request.settingId);
    if (!descriptor) return undefined;
    const check = checkSetting(descriptor, toStep(descriptor.validation_rules, request.value));
    if (!check.ok) return undefined;
    const kept = holdLimitWhilePaused(deps, inverter.serial, request.settingId, check.value);
    return kept === undefined ? undefined : skipped(`${descriptor.name}: ${kept}`, 0);
  }

  /**
   * A change of Timed Export that sets the discharge target the daemon holds: the target kept in
   * the store (it acts at the next minute's check), the preset's other fields, if any, through the
   * ordinary path.
   */
  private async keepDischargeTarget(
    request: Extract<ChangeRequest, { kind: "preset" }>,
    inverter: ControlledInverter,
    context: ChangeContext,
    snapshots: LocalSnapshots,
  ): Promise<ChangeOutcome> {
    const { [TARGET_FIELD]: percent, ...rest } = request.fields;
    const problem = targetProblem(percent);
    if (problem || typeof percent !== "number") return refused(problem ?? `${TARGET_FIELD}: a number`);
    const before = keptTarget(snapshots, inverter.serial);
    if (before !== percent) keepTarget(snapshots, inverter.serial, percent, this.clock.now());
    const kept =
      before === percent
        ? `the discharge target is already ${percent}%`
        : `discharge target ${percent}% kept by energy2mqtt: a running discharge slot pauses at it, checked each minute`;
    if (Object.keys(rest).length > 0) {
      const others = await changePreset(context, inverter, request.preset, rest);
      return { ...others, message: `${kept}; ${others.message}` };
    }
    await this.rememberHeldTarget(inverter);
    if (before === percent) return skipped(kept, { [TARGET_FIELD]: percent });
    return succeeded(kept, { verified: true, value: { [TARGET_FIELD]: percent } });
  }

  /**
   * Timed Export's values as shown, with the discharge target the daemon holds, after a change of
   * it: the path's own read (which the change remembered) does not know the target.
   */
  private async rememberHeldTarget(inverter: ControlledInverter): Promise<void> {
    const { serial } = inverter;
    if (!this.limitsHeld(serial) || !listsHeldTarget(inverter.presets)) return;
    try {
      const call = { priority: "command" as const, signal: this.stopping.signal };
      const values = await this.reads.inverters.readPreset(serial, TARGET_PRESET, call);
      this.state.remember({ kind: "preset", serial, preset: TARGET_PRESET, values });
    } catch (error) {
      this.logger.debug({ target: serial, err: (error as Error).message }, "Timed Export not read back");
    }
  }

  /**
   * The discharge target's check (discharge-target.ts), once a minute with the latest live SoC:
   * while a discharge slot runs and the SoC is at or below the target, the discharge is held
   * paused until that slot ends. Records each start and end of a hold in the audit log with its
   * reason (`daemon`/`discharge-target`); true when the hold started or ended now.
   */
  async checkDischargeTarget(serial: string, soc: number | undefined): Promise<boolean> {
    const snapshots = this.limitsHeld(serial);
    if (!snapshots || !listsHeldTarget(this.devices.inverter(serial)?.presets ?? [])) return false;
    const signal = this.stopping.signal;
    const minute = localMinuteOfDay(this.clock.now(), this.timeZone());
    try {
      const turn = await checkTarget({ control: this.control, snapshots, holds: this.targetHolds, signal }, serial, {
        soc,
        minute,
      });
      if (turn) this.recordTarget(serial, turn.message, turn.request);
      return turn !== undefined;
    } catch (error) {
      this.logger.debug({ target: serial, err: (error as Error).message }, "discharge target not checked");
      return false;
    }
  }

  private recordTarget(serial: string, message: string, request: Record<string, string | number>): void {
    this.logger.info({ target: serial }, message);
    try {
      this.audit.record({
        at: this.clock.now(),
        source: "daemon",
        requesterName: TARGET_REQUESTER.name,
        targetKind: "inverter",
        target: serial,
        action: "discharge-target",
        request,
        ok: true,
        verified: false,
        skipped: false,
        message,
      });
    } catch (error) {
      this.logger.warn(
        { target: serial, err: (error as Error).message },
        "the discharge target's row could not be written",
      );
    }
  }

  /**
   * What a hold by the battery's limits (the daemon's pause, its discharge target) needs of the
   * gate, for a device whose limits it can hold; undefined otherwise.
   */
  private pauseDeps(serial: string, requester: Requester, signal: AbortSignal): PauseDeps | undefined {
    const snapshots = this.limitsHeld(serial);
    if (!snapshots) return undefined;
    return {
      control: this.control,
      snapshots,
      signal,
      now: () => this.clock.now(),
      timeZone: this.timeZone,
      targetHolds: () => this.targetHolds.has(serial),
      remember: (reading: ControlReading) => this.state.remember(reading),
      applySetting: async (settingId: number, value: SettingValue, restore: boolean) => {
        const request: ChangeRequest = { kind: "setting", serial, settingId, value };
        const by: Requester = { ...requester, name: requester.name ?? PAUSE_PRESET, ...(restore ? { restore } : {}) };
        // The change holds the device's turn in the queue: each limit goes in it, one after another.
        this.enforcing.add(serial);
        try {
          const { value: outcome, hold } = await this.applyNow(request, by, { signal });
          await hold;
          return outcome;
        } finally {
          this.enforcing.delete(serial);
        }
      },
    };
  }

  /**
   * Puts the battery's limits where the pause the daemon holds wants them now (at a slot's edge,
   * and once at start): each limit through the setting path, audited under `requester`. Undefined
   * when the device's pause is not the daemon's.
   */
  enforcePause(serial: string, requester: Requester): Promise<Enforced | undefined> {
    return this.queue.run(`inverter:${serial}`, async () => {
      const inverter = this.devices.inverter(serial);
      const deps = this.pauseDeps(serial, requester, this.stopping.signal);
      if (!inverter || !deps || !inverter.controllable) return undefined;
      const enforced = await enforcePause(deps, inverter);
      // A pause register of the device's own shows its own values, read by the path.
      if (emulatesPause(this.control, serial))
        this.state.remember({ kind: "preset", serial, preset: PAUSE_PRESET, values: await pauseValues(deps, serial) });
      if (!enforced.ok) this.logger.warn({ target: serial, source: requester.via }, enforced.message);
      return enforced;
    });
  }

  /**
   * Which sides the pause the daemon holds for the device pauses this minute (as text, to compare
   * with the last minute's); undefined when the device's pause is not the daemon's.
   */
  pausedSidesNow(serial: string): string | undefined {
    const snapshots = this.limitsHeld(serial);
    if (!snapshots) return undefined;
    const minute = localMinuteOfDay(this.clock.now(), this.timeZone());
    const targetHolds = () => this.targetHolds.has(serial);
    return JSON.stringify(withTarget(pausedNow(heldPause(snapshots, serial), minute), { targetHolds }));
  }

  /**
   * The daemon's snapshots, where it can hold the device's battery limits (its changes over the
   * LAN, which has both): its pause and discharge target are kept there. Undefined otherwise.
   */
  private limitsHeld(serial: string): LocalSnapshots | undefined {
    return this.localSnapshots && holdsLimits(this.control, serial) ? this.localSnapshots : undefined;
  }

  /** A snapshot of a device whose changes go over the LAN: the daemon's own, kept in the store. */
  private async localSnapshot(
    action: Extract<DeviceAction, { kind: "snapshot" }>,
    inverter: ControlledInverter,
    requester: Requester,
    signal: AbortSignal,
  ): Promise<DeviceActionOutcome> {
    const { serial, name, op } = action;
    if (name.length < 1 || name.length > SNAPSHOT_NAME_MAX)
      return refusedAction(`a snapshot's name is 1 to ${SNAPSHOT_NAME_MAX} characters (got ${name.length})`);
    const snapshots = this.localSnapshots;
    if (!snapshots)
      return refusedAction(
        `inverter ${serial} is changed over the LAN, where energy2mqtt keeps snapshots in its store, and the store is not open`,
      );
    if (op === "delete") return deleteLocalSnapshot(snapshots, serial, name);
    const deps = {
      control: this.control,
      snapshots,
      signal,
      now: () => this.clock.now(),
      remember: (reading: ControlReading) => this.state.remember(reading),
      applySetting: async (settingId: number, value: SettingValue) => {
        const request: ChangeRequest = { kind: "setting", serial, settingId, value };
        // This action holds the device's turn in the queue: each value goes in it, one after another.
        const { value: outcome, hold } = await this.applyNow(request, { ...requester, restore: true }, { signal });
        await hold;
        return outcome;
      },
    };
    return op === "take" ? takeLocalSnapshot(deps, inverter, name) : restoreLocalSnapshot(deps, inverter, name);
  }

  /**
   * Writes the change's row before anything is sent: its id, or the refusal to answer with when
   * the audit log cannot be written (a full disk, a store that could not be opened).
   */
  private begin(entry: AuditEntryInput): number | ChangeOutcome {
    try {
      return this.audit.begin(entry);
    } catch (error) {
      const outcome = auditUnwritable(error);
      // A warning, so that it reaches <base>/bridge/logging as well as the requester.
      this.logger.warn(
        { target: entry.target, action: entry.action, source: entry.source, requester: entry.requesterName },
        outcome.message,
      );
      return outcome;
    }
  }

  /** Writes the change's audit row (settles the begun one, when given); returns the time it was recorded at. */
  private record(request: ChangeRequest, requester: Requester, outcome: ChangeOutcome, row?: number): number {
    const entry = auditEntry(request, requester, outcome, this.clock.now());
    this.write(entry, outcome, row);
    return entry.at;
  }

  private tell(event: ChangeApplied): void {
    if (!this.onApplied) return;
    try {
      this.onApplied(event);
    } catch (error) {
      // The change is done and recorded; a listener's failure must not turn it into an error.
      const target = event.request ? targetOf(event.request).id : actionTarget(event.action).id;
      this.logger.error({ err: error, target }, "a listener of applied changes failed");
    }
  }

  private write(entry: AuditEntryInput, outcome: ChangeOutcome, row?: number): void {
    const fields = {
      target: entry.target,
      action: entry.action,
      source: entry.source,
      requester: entry.requesterName,
      ok: outcome.ok,
      code: outcome.code,
      verified: outcome.verified,
      skipped: outcome.skipped,
    };
    if (outcome.ok) this.logger.info(fields, outcome.message);
    else this.logger.warn(fields, outcome.message);
    try {
      if (row === undefined) this.audit.record(entry);
      else this.audit.settle(row, entry);
    } catch (error) {
      // The change itself is done, and its begun row says it was sent; a failing store must not
      // hide its outcome from the requester.
      this.logger.error({ err: error, ...fields }, "the audit log could not record this change");
    }
  }
}

/** The outcome a begun row holds until the change's own replaces it. */
const pending: ChangeOutcome = { ok: false, verified: false, skipped: false, message: OUTCOME_PENDING };

function notControllable(inverter: ControlledInverter): ChangeOutcome {
  return refused(notControllableReason(inverter));
}

function notControllableReason(inverter: ControlledInverter): string {
  if (inverter.noControlReason) return inverter.noControlReason;
  return inverter.emsSerial
    ? `inverter ${inverter.serial} is part of the EMS plant ${inverter.emsSerial}: control it through the EMS, not directly`
    : `inverter ${inverter.serial} does not take remote control (it lacks the is-controllable flag): control it through its EMS or gateway`;
}

function refusedAction(reason: string): DeviceActionOutcome {
  return { ok: false, refused: true, message: `Refused, nothing sent: ${reason}` };
}
