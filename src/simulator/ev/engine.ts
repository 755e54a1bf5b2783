import { STARTED_BY_INVERTER_CONTROL, STARTED_BY_PLUG_AND_GO } from "../../cloud/index.js";
import { offeredCurrent, powerAt } from "./charging.js";
import type { Handover } from "./history.js";
import { arrivalSoc, type CarPlan, dayOf, FIVE_MINUTES_MS, HOUR_MS, MINUTE_MS, type Visit } from "./plan.js";
import { periodLimitAt } from "./schedule.js";
import { activeSchedule, type ChargerSettings } from "./settings.js";
import type { ChargerSpec, MeterState, Session } from "./types.js";

export interface EngineDeps {
  spec: ChargerSpec;
  plan: CarPlan;
  /** A getter: a factory reset replaces the settings object. */
  settings: () => ChargerSettings;
  surplusW: (ms: number) => number;
}

const REBOOT_MS = MINUTE_MS;
/** Battery percent a car plugged in by hand has used since it left. */
const HAND_DRIVING = 15;
/** Float slack when comparing energies and percentages that were integrated. */
const EPSILON = 1e-9;

/**
 * The live charger from the simulation's start: the car's comings and goings, sessions,
 * the charging power and the meter. Decisions are taken on whole minutes and after each
 * command, and energy is integrated between them, so the result does not depend on how
 * often advanceTo is called.
 */
export class LiveCharger {
  /** Sessions since the start (including one carried over from history), oldest first. */
  readonly sessions: Session[] = [];
  private sim: number;
  private register: number;
  private soc: number;
  private lastVisitDay: number | null;
  /** The stay under way; null while the car is away (nothing plugged in). */
  private visit: Visit | null;
  private session: Session | null;
  /** The session stopped with the cable still in: Finishing until the car leaves. */
  private finishing = false;
  private adminOffline = false;
  private rebootUntil: number | null = null;
  private wentOfflineAt: number | null = null;
  /** A restart clears a fault for the rest of its day. */
  private faultClearedDay: number | null = null;
  private offered = 0;
  private power = 0;
  /** A local limit (an OCPP charging profile, a Modbus write), amps; null when none applies. */
  private localLimitA: number | null = null;
  /** Set out of operation locally (OCPP ChangeAvailability Inoperative): Unavailable, yet online. */
  private inoperative = false;
  /** Plugged or unplugged by hand (the admin API): the car plan no longer moves the car. */
  private carByHand = false;
  private readonly samples = new Map<number, MeterState>();

  constructor(
    private readonly deps: EngineDeps,
    startMs: number,
    handover: Handover,
  ) {
    this.sim = startMs;
    this.register = handover.registerKwh;
    this.soc = handover.carSoc;
    this.lastVisitDay = handover.lastVisitDay;
    this.visit = handover.visit;
    this.session = handover.openSession;
    if (this.session) this.sessions.push(this.session);
    if (startMs % MINUTE_MS === 0) this.tick(startMs);
    else this.evaluate();
  }

  get now(): number {
    return this.sim;
  }

  advanceTo(ms: number): void {
    while (this.sim < ms) {
      const nextTick = Math.floor(this.sim / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
      const until = Math.min(ms, nextTick, this.nextThreshold());
      this.integrate(until);
      this.sim = until;
      this.settle();
      if (until === nextTick) this.tick(until);
    }
  }

  // ---- what the API shows ----

  status(): string {
    if (!this.online() || this.inoperative) return "Unavailable";
    if (this.faulted()) return "Faulted";
    if (!this.visit) return "Available";
    if (!this.session) return this.finishing ? "Finishing" : "Preparing";
    if (this.power > 0) return "Charging";
    return this.soc >= 100 - EPSILON ? "SuspendedEV" : "SuspendedEVSE";
  }

  online(): boolean {
    return !this.adminOffline && this.rebootUntil === null;
  }

  offlineSince(): number | null {
    return this.wentOfflineAt;
  }

  powerW(): number {
    return this.power;
  }

  /** The five-minute reading at `ms`, if the charger was online to record it. */
  sampleAt(ms: number): MeterState | undefined {
    return this.samples.get(ms);
  }

  carPlugged(): boolean {
    return this.visit !== null;
  }

  sessionOpen(): boolean {
    return this.session !== null;
  }

  /** The session under way, if any (shared with `sessions`: do not change it). */
  openSession(): Readonly<Session> | null {
    return this.session;
  }

  /** What the meter reads now (energy integrated up to the last advanceTo). */
  reading(): MeterState {
    return this.meterState();
  }

  /** The local limit in amps, or null when none applies. */
  localLimit(): number | null {
    return this.localLimitA;
  }

  faulted(): boolean {
    const day = dayOf(this.sim);
    const window = this.deps.plan.faultOn(day);
    return (
      window !== undefined && this.faultClearedDay !== day && this.sim >= window.startMs && this.sim < window.endMs
    );
  }

  // ---- what commands and faults do ----

  startSession(startedBy: string): void {
    if (!this.visit || this.session) return;
    this.open(startedBy);
    this.evaluate();
  }

  stopSession(stoppedBy: string, reason: string): void {
    const session = this.session;
    if (!session) return;
    session.stoppedBy = stoppedBy;
    session.meterStop = this.register;
    session.stoppedAt = this.sim;
    session.stopReason = reason;
    this.session = null;
    this.finishing = this.visit !== null;
    this.evaluate();
  }

  /** Stops any session (stopped by `actor`) and keeps the charger unavailable for a minute. */
  reboot(hard: boolean, actor: string): void {
    this.stopSession(actor, hard ? "HardReset" : "SoftReset");
    // After the reboot the charger sees the car afresh, as if just plugged in.
    this.finishing = false;
    if (this.faulted()) this.faultClearedDay = dayOf(this.sim);
    this.rebootUntil = this.sim + REBOOT_MS;
    this.noteOnline();
    this.evaluate();
  }

  /**
   * Plugs the car in (`plugged`) or out by hand; from then on the car plan no longer moves it. The
   * car comes back with `socPercent`, or else with a day's average driving (15 %) taken off.
   */
  plugByHand(plugged: boolean, socPercent?: number): void {
    this.carByHand = true;
    if (!plugged) {
      if (this.visit) this.unplug();
      this.evaluate();
      return;
    }
    if (this.visit) return;
    this.visit = { day: dayOf(this.sim), arriveMs: this.sim, departMs: Infinity, usePerDay: HAND_DRIVING, tapMs: null };
    this.soc =
      socPercent === undefined ? arrivalSoc(this.soc, this.visit, null) : Math.min(100, Math.max(0, socPercent));
    this.lastVisitDay = dayOf(this.sim);
    this.finishing = false;
    this.evaluate();
  }

  /** A local current limit in amps (null lifts it): the car draws the lower of it and the charger's own offer. */
  setLocalLimit(limitA: number | null): void {
    this.localLimitA = limitA;
    this.evaluate();
  }

  setInoperative(inoperative: boolean): void {
    this.inoperative = inoperative;
    this.evaluate();
  }

  setOffline(offline: boolean): void {
    this.adminOffline = offline;
    this.noteOnline();
    this.evaluate();
  }

  /** Re-takes the charging decision now, e.g. after a command changed a setting. */
  evaluate(): void {
    const operational = this.online() && !this.faulted() && !this.inoperative;
    if (operational && this.visit && !this.session && !this.finishing) {
      const starter = this.autoStarter();
      if (starter !== null) this.open(starter);
    }
    if (!operational || !this.session) {
      this.offered = 0;
      this.power = 0;
      return;
    }
    const { spec } = this.deps;
    const offered = this.offeredNow();
    this.offered = this.localLimitA === null ? offered : Math.max(0, Math.min(offered, this.localLimitA));
    const carA = this.soc >= 100 - EPSILON ? 0 : Math.min(this.offered, spec.car.maxCurrentA);
    this.power = powerAt(carA, spec.voltage, spec.phases);
  }

  // ---- internals ----

  private tick(t: number): void {
    if (this.rebootUntil !== null && t >= this.rebootUntil) {
      this.rebootUntil = null;
      this.noteOnline();
    }
    if (this.visit && t >= this.visit.departMs) this.unplug();
    if (!this.visit && !this.carByHand) {
      const visit = this.deps.plan.visitOn(dayOf(t));
      if (
        visit &&
        visit.arriveMs <= t &&
        t < visit.departMs &&
        (this.lastVisitDay === null || visit.day > this.lastVisitDay)
      ) {
        this.soc = arrivalSoc(this.soc, visit, this.lastVisitDay);
        this.lastVisitDay = visit.day;
        this.visit = visit;
        this.finishing = false;
      }
    }
    const tag = this.deps.settings().idTags[0];
    if (this.visit?.tapMs === t && tag && !this.session && !this.finishing && this.online() && !this.faulted()) {
      this.startSession(tag.id);
    }
    this.evaluate();
    if (t % FIVE_MINUTES_MS === 0 && this.online()) this.samples.set(t, this.meterState());
  }

  private open(startedBy: string): void {
    this.session = {
      startedBy,
      meterStart: this.register,
      startedAt: this.sim,
      stoppedBy: null,
      meterStop: null,
      stoppedAt: null,
      stopReason: null,
    };
    this.sessions.push(this.session);
    this.finishing = false;
  }

  private unplug(): void {
    const session = this.session;
    if (session) this.stopSession(session.startedBy, "EVDisconnected");
    this.visit = null;
    this.finishing = false;
  }

  private autoStarter(): string | null {
    const settings = this.deps.settings();
    if (settings.mode === "ModbusSlave") return STARTED_BY_INVERTER_CONTROL;
    if (settings.plugAndGo) return STARTED_BY_PLUG_AND_GO;
    const schedule = activeSchedule(settings);
    if (schedule && periodLimitAt(schedule, this.sim) !== null) return settings.scheduleActivatedBy;
    return null;
  }

  private offeredNow(): number {
    const settings = this.deps.settings();
    const { spec } = this.deps;
    const schedule = activeSchedule(settings);
    const scheduleLimitA = schedule ? periodLimitAt(schedule, this.sim) : undefined;
    const needsSurplus = scheduleLimitA === undefined && settings.mode !== "Boost";
    const surplusW = needsSurplus ? Math.max(0, this.deps.surplusW(this.sim)) : 0;
    // Chargers set the current in steps of 0.1 A.
    const surplusA = Math.floor((surplusW / (spec.voltage * spec.phases)) * 10) / 10;
    return offeredCurrent({
      mode: settings.mode,
      limitA: settings.currentLimitA,
      hardwareA: spec.maxCurrentA,
      surplusA,
      scheduleLimitA,
    });
  }

  private meterState(): MeterState {
    return {
      registerKwh: this.register,
      powerW: this.power,
      offeredA: this.offered,
      socPercent: this.visit ? this.soc : null,
    };
  }

  /** kWh the car can still take, and kWh left under the session energy limit (Infinity without one). */
  private headroom(): { car: number; limit: number } {
    const car = ((100 - this.soc) / 100) * this.deps.spec.car.batteryKwh;
    const limitKwh = this.deps.settings().sessionEnergyLimitKwh;
    const limit = limitKwh === null || !this.session ? Infinity : limitKwh - (this.register - this.session.meterStart);
    return { car, limit };
  }

  /** The first whole millisecond at which the car is full or the energy limit is reached. */
  private nextThreshold(): number {
    if (this.power <= 0) return Infinity;
    const kw = this.power / 1000;
    const { car, limit } = this.headroom();
    const kwh = Math.max(0, Math.min(car, limit));
    return this.sim + Math.max(1, Math.ceil((kwh / kw) * HOUR_MS));
  }

  private integrate(until: number): void {
    if (this.power <= 0) return;
    const { car, limit } = this.headroom();
    const energy = Math.max(0, Math.min((this.power / 1000) * ((until - this.sim) / HOUR_MS), car, limit));
    this.register += energy;
    this.soc += (energy / this.deps.spec.car.batteryKwh) * 100;
  }

  /** Stops the session at the energy limit and holds a full car; after integrating or a new limit. */
  settle(): void {
    const session = this.session;
    const limitKwh = this.deps.settings().sessionEnergyLimitKwh;
    if (session && limitKwh !== null && this.register - session.meterStart >= limitKwh - EPSILON) {
      // The server stops the session for the energy limit; neither the user nor a remote actor did.
      this.stopSession(session.startedBy, "Other");
    }
    if (this.power > 0 && this.soc >= 100 - EPSILON) {
      this.soc = 100;
      this.evaluate();
    }
  }

  private noteOnline(): void {
    if (this.online()) this.wentOfflineAt = null;
    else this.wentOfflineAt ??= this.sim;
  }
}
