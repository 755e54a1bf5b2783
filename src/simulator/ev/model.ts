import type { z } from "zod";
import type { chargingSession, evCharger } from "../../cloud/index.js";
import { EV_COMMAND_IDS, type EvCommandId, isEvCommandId } from "../../cloud/index.js";
import { hash32, sequence } from "../random.js";
import { offeredCurrent, powerAt } from "./charging.js";
import { COMMAND_DATA } from "./command-data.js";
import { COMMANDS, type CommandContext } from "./command-handlers.js";
import { LiveCharger } from "./engine.js";
import { ChargerHistory, historyAutoStarter } from "./history.js";
import { isoSeconds, METER_ID, type MeterRecord, meterRecord } from "./meter.js";
import { CarPlan, FIVE_MINUTES_MS } from "./plan.js";
import { callError, OFFLINE_BODY, resultBody, serverErrorBody, TIMEOUT_BODY } from "./results.js";
import { type ChargerSettings, defaultSettings } from "./settings.js";
import type { ChargerActor, ChargerOptions, ChargerSpec, CommandAnswer, LocalCharger, Session } from "./types.js";

/**
 * The commands a real charger lists, in its order (predbat_comment_evc_commands.json). The
 * reference's other commands are not among them: they answer a NotSupported CallError.
 */
export const LISTED_COMMANDS: readonly EvCommandId[] = [
  "start-charge",
  "stop-charge",
  "adjust-charge-power-limit",
  "set-plug-and-go",
  "set-session-energy-limit",
  "set-schedule",
  "unlock-connector",
  "delete-charging-profile",
  "change-mode",
  "restart-charger",
  "change-randomised-delay-duration",
  "add-id-tags",
  "delete-id-tags",
  "rename-id-tag",
  "installation-mode",
  "setup-version",
  "set-active-schedule",
  "set-max-import-capacity",
  "enable-front-panel-led",
  "configure-inverter-control",
  "perform-factory-reset",
  "configuration-mode",
  "enable-local-control",
];

export const UNSUPPORTED_COMMANDS: readonly EvCommandId[] = EV_COMMAND_IDS.filter(
  (id) => !LISTED_COMMANDS.includes(id),
);

export interface MeterQuery {
  startMs: number;
  /** Exclusive, so adjacent windows do not repeat a record. */
  endMs: number;
  /** Measurand numbers; empty means all. */
  measurands: readonly number[];
  /** Empty means all. */
  meterIds: readonly number[];
}

const round3 = (kwh: number): number => Math.round(kwh * 1000) / 1000;

function wireSession(session: Session): z.input<typeof chargingSession> {
  return {
    started_by: session.startedBy,
    meter_start: round3(session.meterStart),
    started_at: isoSeconds(session.startedAt),
    stopped_by: session.stoppedBy,
    meter_stop: session.meterStop === null ? null : round3(session.meterStop),
    stopped_at: session.stoppedAt === null ? null : isoSeconds(session.stoppedAt),
    stop_reason: session.stopReason,
  };
}

/**
 * One simulated EV charger: its history since commissioning (computed from the seed), its
 * live state machine, and the command interface of the reference.
 */
export class ChargerModel {
  private settings: ChargerSettings;
  private readonly history: ChargerHistory;
  private readonly engine: LiveCharger;
  private readonly timeoutDraws: () => number;
  private pendingTimeouts = 0;
  private schedulesMade = 0;
  private pastSessions: Session[] | undefined;

  constructor(
    private readonly spec: ChargerSpec,
    private readonly seed: number,
    private readonly startMs: number,
    options: ChargerOptions = {},
  ) {
    this.settings = defaultSettings(spec);
    const plan = new CarPlan(seed);
    const offeredA = offeredCurrent({
      mode: this.settings.mode,
      limitA: this.settings.currentLimitA,
      hardwareA: spec.maxCurrentA,
      surplusA: 0,
      scheduleLimitA: undefined,
    });
    this.history = new ChargerHistory(plan, spec.commissionDate, startMs, {
      autoStarter: historyAutoStarter(this.settings.mode, this.settings.plugAndGo),
      tagId: this.settings.idTags[0]?.id ?? null,
      offeredA,
      powerW: powerAt(Math.min(offeredA, spec.car.maxCurrentA), spec.voltage, spec.phases),
      batteryKwh: spec.car.batteryKwh,
    });
    this.engine = new LiveCharger(
      { spec, plan, settings: () => this.settings, surplusW: options.surplusW ?? (() => 0) },
      startMs,
      this.history.handover,
    );
    this.timeoutDraws = sequence(hash32(seed, "ev-timeouts"));
  }

  /** Moves the charger to `ms`; earlier times are ignored. */
  advanceTo(ms: number): void {
    this.engine.advanceTo(ms);
  }

  info(): z.input<typeof evCharger> {
    const offlineSince = this.engine.offlineSince();
    return {
      uuid: this.spec.uuid,
      serial_number: this.spec.serialNumber,
      type: this.spec.type,
      alias: this.spec.alias,
      online: this.engine.online(),
      went_offline_at: offlineSince === null ? null : isoSeconds(offlineSince),
      status: this.engine.status(),
    };
  }

  /** Five-minute records in [startMs, endMs) up to now, oldest first; none while the charger was offline. */
  meterData(q: MeterQuery): MeterRecord[] {
    if (q.meterIds.length > 0 && !q.meterIds.includes(METER_ID)) return [];
    const wanted = q.measurands.length > 0 ? new Set(q.measurands) : null;
    const ctx = { seed: this.seed, voltage: this.spec.voltage, phases: this.spec.phases };
    const first = Math.ceil(Math.max(q.startMs, this.spec.commissionDate) / FIVE_MINUTES_MS) * FIVE_MINUTES_MS;
    const end = Math.min(q.endMs, this.engine.now + 1);
    const records: MeterRecord[] = [];
    for (let t = first; t < end; t += FIVE_MINUTES_MS) {
      const state = t < this.startMs ? this.history.meterAt(t) : this.engine.sampleAt(t);
      const record = state && meterRecord(ctx, t, state, wanted);
      if (record) records.push(record);
    }
    return records;
  }

  /** Sessions overlapping [startMs, endMs] (either end optional), newest first. */
  sessions(q: { startMs?: number; endMs?: number }): z.input<typeof chargingSession>[] {
    this.pastSessions ??= this.history.closedSessions();
    const { startMs, endMs } = q;
    return [...this.pastSessions, ...this.engine.sessions]
      .filter(
        (s) =>
          (endMs === undefined || s.startedAt <= endMs) &&
          (startMs === undefined || (s.stoppedAt ?? Infinity) >= startMs),
      )
      .reverse()
      .map(wireSession);
  }

  supportedCommands(): string[] {
    return [...LISTED_COMMANDS];
  }

  /** The command's current data; undefined for a command the reference does not list. */
  commandData(commandId: string): unknown | undefined {
    return isEvCommandId(commandId) ? COMMAND_DATA[commandId](this.settings) : undefined;
  }

  /**
   * Validation (422) comes first, as the server checks a request before relaying it; then an
   * offline charger (-2), a command the firmware lacks (-5 NotSupported), an injected timeout
   * (-1), and finally the command itself.
   */
  sendCommand(commandId: string, body: unknown, actor: ChargerActor): CommandAnswer {
    if (!isEvCommandId(commandId)) return { status: 200, body: serverErrorBody(`Unknown command ${commandId}`) };
    return this.send(commandId, body, actor);
  }

  powerW(): number {
    return this.engine.powerW();
  }

  setOffline(offline: boolean): void {
    this.engine.setOffline(offline);
  }

  /** The charger as OCPP and Modbus see it: the same engine and settings as the cloud's view. */
  local(): LocalCharger {
    const engine = this.engine;
    return {
      spec: this.spec,
      advanceTo: (ms) => engine.advanceTo(ms),
      status: () => engine.status(),
      reading: () => engine.reading(),
      session: () => engine.openSession(),
      carPlugged: () => engine.carPlugged(),
      plug: (plugged, socPercent) => engine.plugByHand(plugged, socPercent),
      startSession: (startedBy) => engine.startSession(startedBy),
      stopSession: (stoppedBy, reason) => engine.stopSession(stoppedBy, reason),
      reboot: (hard, actor) => engine.reboot(hard, actor),
      setLocalLimit: (limitA) => engine.setLocalLimit(limitA),
      localLimit: () => engine.localLimit(),
      setInoperative: (inoperative) => engine.setInoperative(inoperative),
      currentLimitA: () => this.settings.currentLimitA,
      setCurrentLimitA: (limitA) => {
        this.settings.currentLimitA = limitA;
        engine.evaluate();
      },
    };
  }

  injectTimeouts(count: number): void {
    this.pendingTimeouts += Math.max(0, Math.floor(count));
  }

  private send(commandId: EvCommandId, body: unknown, actor: ChargerActor): CommandAnswer {
    const validated = COMMANDS[commandId](body);
    if (!validated.ok) return { status: 422, body: validated.body };
    if (!this.engine.online()) return { status: 200, body: OFFLINE_BODY };
    if (UNSUPPORTED_COMMANDS.includes(commandId)) {
      return {
        status: 200,
        body: resultBody(callError("NotSupported", `${commandId} is not supported by this charger`)),
      };
    }
    const apply = () => {
      const outcome = validated.value(this.context(actor));
      this.engine.settle();
      this.engine.evaluate();
      return outcome;
    };
    if (this.pendingTimeouts > 0) {
      this.pendingTimeouts--;
      // A timed-out command may or may not have reached the charger.
      if (this.timeoutDraws() < 0.5) apply();
      return { status: 200, body: TIMEOUT_BODY };
    }
    return { status: 200, body: resultBody(apply()) };
  }

  private context(actor: ChargerActor): CommandContext {
    return {
      spec: this.spec,
      settings: this.settings,
      engine: this.engine,
      actor,
      now: this.engine.now,
      newScheduleId: () => this.newScheduleId(),
      factoryReset: () => {
        this.settings = defaultSettings(this.spec);
      },
    };
  }

  /** A UUID-shaped id, fixed by the seed and the count of schedules made. */
  private newScheduleId(): string {
    const n = this.schedulesMade++;
    const hex = [0, 1, 2, 3]
      .map((part) => hash32(this.seed, "schedule", n, part).toString(16).padStart(8, "0"))
      .join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }
}
