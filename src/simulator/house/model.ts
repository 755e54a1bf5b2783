import { dateOfDayNumber, dayNumber, dayOf, isoSeconds } from "../../time/index.js";
import type { DataPointBody, EnergyFlowBody, FaultEventBody, MeterDataBody, SystemDataBody } from "./bodies.js";
import { BatteryCalibration } from "./calibration.js";
import { type ControlSettings, readControl } from "./control.js";
import { type DayDetail, DayRun, powersOf, type SlotMinute } from "./day-run.js";
import { FLOW_COUNT } from "./dispatch.js";
import type { Fault } from "./faults.js";
import { type EnergyFlowQuery, energyFlowRecords } from "./flows.js";
import { dayFrame, SLOT_MS, STEP_MS } from "./frame.js";
import { History } from "./history.js";
import { arrayShares, DayInputs, faultsStartingOn } from "./inputs.js";
import { COUNTER_COUNT, counterUnits } from "./ledger.js";
import { dataPointsOf } from "./points.js";
import { RaisedFaults } from "./raised-faults.js";
import { type Reading, reading } from "./reading.js";
import type { SettingsView } from "./settings-view.js";
import { type HouseContext, houseContext, type InverterSpec } from "./spec.js";
import { meterDataWire, systemDataWire } from "./wire.js";

export type InverterStatus = "NORMAL" | "LOST" | "ERROR" | "WAITING" | "UNKNOWN";

export interface EventQuery {
  readonly startMs?: number;
  readonly endMs?: number;
  /** false: only faults not yet cleared. */
  readonly cleared: boolean;
}

/**
 * One hybrid-inverter house. Days before `startMs` are history under the settings read at
 * construction, computed only when asked; from `startMs` on, `advanceTo` integrates minute by
 * minute under the settings of the moment. Nothing is simulated at construction.
 */
export class InverterModel {
  /** A battery calibration started by the admin endpoint (served in HR 29 over the LAN). */
  readonly calibration = new BatteryCalibration();
  private readonly context: HouseContext;
  private readonly history: History;
  private readonly startMs: number;
  private live: DayRun | undefined;
  private readonly liveDetails = new Map<number, DayDetail>();
  private offlineSince: number | undefined;
  private readonly offlineSpans: [number, number][] = [];
  private offlineSnapshot: { system: SystemDataBody; meter: MeterDataBody } | undefined;
  private slotMinute: SlotMinute | undefined;
  private extraLoad: () => number = () => 0;
  /** Faults raised by hand (the admin endpoint), at the model's time. */
  readonly raisedFaults = new RaisedFaults();

  constructor(
    readonly spec: InverterSpec,
    private readonly settings: SettingsView,
    seed: number,
    startMs: number,
  ) {
    this.context = houseContext(spec, seed);
    this.startMs = Math.floor(startMs / STEP_MS) * STEP_MS;
    const startDay = this.dayOf(this.startMs);
    const firstDay = Math.min(this.dayOf(spec.commissionDate), startDay);
    this.history = new History(this.context, readControl(settings), firstDay, startDay);
  }

  /** From now on its timed slots run by the device's own clock (its dongle's registers), not the zone's. */
  runSlotsBy(slotMinute: SlotMinute): void {
    this.slotMinute = slotMinute;
  }

  /** The model's time: everything before it has been integrated. */
  nowMs(): number {
    return this.live ? this.live.frame.startMs + this.live.cursor * STEP_MS : this.startMs;
  }

  advanceTo(ms: number): void {
    let run = this.ensureLive();
    const target = Math.floor(ms / STEP_MS) * STEP_MS;
    if (target <= this.nowMs()) return;
    if (this.offlineSince !== undefined) this.offlineSnapshot ??= this.snapshot();
    const control = readControl(this.settings);
    const extraW = this.extraLoad();
    while (this.nowMs() < target) {
      run.extraLoadW = extraW;
      run.run(control, (target - run.frame.startMs) / STEP_MS, this.slotMinute);
      if (run.done) run = this.rollOver(run);
    }
  }

  systemDataLatest(): SystemDataBody {
    if (this.offlineSince !== undefined) return this.lastHeard().system;
    return systemDataWire(this.currentReading(), this.status());
  }

  meterDataLatest(): MeterDataBody {
    if (this.offlineSince !== undefined) return this.lastHeard().meter;
    return this.meterNow();
  }

  /** What the inverter itself shows now (on its LAN dongle), whether or not the cloud hears it. */
  liveSystemData(): SystemDataBody {
    return systemDataWire(this.currentReading(), this.status());
  }

  /** The inverter's own counters now, whether or not the cloud hears it. */
  liveMeterData(): MeterDataBody {
    return this.meterNow();
  }

  dataPoints(date: string): DataPointBody[] {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return [];
    const day = dayNumber(date);
    if (dateOfDayNumber(day) !== date) return [];
    if (day < this.dayOf(this.spec.commissionDate)) return [];
    const detail = day >= this.history.endDay ? this.liveDetail(day) : this.history.detail(day);
    if (!detail) return [];
    return dataPointsOf(this.context, detail, {
      nowMs: this.nowMs(),
      unitsBefore: this.history.ledger.unitsBefore(day),
      silent: (ms) => this.isOffline(ms),
    });
  }

  energyFlows(query: EnergyFlowQuery): EnergyFlowBody[] {
    this.ensureLive();
    return energyFlowRecords(query, this.context.timezone, this.spec.commissionDate, this.nowMs(), (from, to, out) =>
      this.sumRange(from, to, out),
    );
  }

  events(query: EventQuery): FaultEventBody[] {
    const now = this.nowMs();
    const from = Math.max(query.startMs ?? this.spec.commissionDate, this.spec.commissionDate);
    const to = Math.min(query.endMs ?? now, now);
    if (from > to) return [];
    const events: FaultEventBody[] = [];
    for (let day = this.dayOf(from) - 1; day <= this.dayOf(to); day++) {
      for (const fault of faultsStartingOn(this.context, day)) {
        if (fault.startMs >= now || fault.startMs > to || fault.endMs <= from) continue;
        const active = fault.endMs > now;
        if (!query.cleared && !active) continue;
        events.push({
          event: fault.name,
          start_time: isoSeconds(fault.startMs),
          end_time: active ? null : isoSeconds(fault.endMs),
        });
      }
    }
    return [...events, ...this.raisedFaults.events(from, to, now, query.cleared)];
  }

  status(): InverterStatus {
    if (this.offlineSince !== undefined) return "LOST";
    const now = this.nowMs();
    if (now < this.spec.commissionDate) return "WAITING";
    const fault = this.activeFault(now);
    if (!fault) return "NORMAL";
    return fault.effect === "comms" ? "LOST" : "ERROR";
  }

  /** An admin switch: offline, the cloud hears nothing and shows the last values it had. */
  setOffline(offline: boolean): void {
    if (offline && this.offlineSince === undefined) {
      this.offlineSince = this.nowMs();
      this.offlineSnapshot = this.live ? this.snapshot() : undefined;
    } else if (!offline && this.offlineSince !== undefined) {
      this.offlineSpans.push([this.offlineSince, this.nowMs()]);
      this.offlineSince = undefined;
      this.offlineSnapshot = undefined;
    }
  }

  /**
   * Load on top of the house's own, W, from the model's time on (advance it first): asked at each
   * advance and taken as constant over the minutes it integrates (the world's requests advance
   * the house every few seconds).
   */
  setExtraLoad(load: () => number): void {
    this.extraLoad = load;
  }

  socPercent(): number {
    const capacity = this.context.plant.capacityWh;
    return capacity > 0 ? (this.ensureLive().socWh / capacity) * 100 : 0;
  }

  batteryPowerW(): number {
    return this.currentReading().batteryW;
  }

  gridPowerW(): number {
    return this.currentReading().gridW;
  }

  pvPowerW(): number {
    return this.currentReading().pvW;
  }

  loadPowerW(): number {
    return this.currentReading().loadW;
  }

  temperatureC(): number {
    return this.currentReading().inverterTempC;
  }

  /** Days summarised and days held in detail, to show what has been computed. */
  cacheStats(): { summaryDays: number; detailDays: number } {
    return { summaryDays: this.history.ledger.count, detailDays: this.history.cachedDetails + this.liveDetails.size };
  }

  private dayOf(ms: number): number {
    return dayNumber(dayOf(ms, this.context.timezone));
  }

  private ensureLive(): DayRun {
    if (this.live) return this.live;
    const day = this.history.endDay;
    const frame = dayFrame(day, this.context.timezone);
    const run = this.history.replay(day, new DayInputs(), (this.startMs - frame.startMs) / STEP_MS);
    this.live = run;
    if (run.detail) this.liveDetails.set(day, run.detail);
    return run;
  }

  private rollOver(finished: DayRun): DayRun {
    this.history.ledger.push(finished.flows, finished.startSocWh);
    const day = finished.frame.day + 1;
    const next = new DayRun(this.context, dayFrame(day, this.context.timezone), finished.inputs, finished.socWh, true);
    this.live = next;
    if (next.detail) this.liveDetails.set(day, next.detail);
    return next;
  }

  private liveDetail(day: number): DayDetail | undefined {
    this.ensureLive();
    return this.liveDetails.get(day);
  }

  private sumRange(from: number, to: number, out: Float64Array): void {
    const ledger = this.history.ledger;
    for (let day = this.dayOf(from); ; day++) {
      const frame = dayFrame(day, this.context.timezone);
      if (frame.startMs >= to) return;
      if (day < ledger.firstDay) continue;
      if (from <= frame.startMs && frame.endMs <= to && day < this.history.endDay) this.history.extend(day + 1);
      if (from <= frame.startMs && frame.endMs <= to && ledger.has(day)) {
        const flows = ledger.dayFlows(day);
        for (let index = 0; index < FLOW_COUNT; index++) out[index] = (out[index] ?? 0) + (flows[index] ?? 0);
        continue;
      }
      const detail = day >= this.history.endDay ? this.liveDetails.get(day) : this.history.detail(day);
      if (!detail) continue;
      for (let slot = 0; slot < frame.slots; slot++) {
        const slotStart = frame.startMs + slot * SLOT_MS;
        if (slotStart < from || slotStart >= to) continue;
        for (let index = 0; index < FLOW_COUNT; index++) {
          out[index] = (out[index] ?? 0) + (detail.slotFlows[slot * FLOW_COUNT + index] ?? 0);
        }
      }
    }
  }

  private currentReading(): Reading {
    const run = this.ensureLive();
    const flowsW = new Float64Array(FLOW_COUNT);
    run.extraLoadW = this.extraLoad();
    run.peek(this.currentControl(), flowsW, this.slotMinute);
    const now = this.nowMs();
    const capacity = this.context.plant.capacityWh;
    return reading(
      this.context,
      run.frame.day,
      run.inputs.minute[Math.min(run.cursor, run.frame.steps - 1)] ?? 0,
      now,
      capacity > 0 ? (run.socWh / capacity) * 100 : 0,
      powersOf(flowsW),
      arrayShares(this.context, run.frame.day, now),
    );
  }

  private currentControl(): ControlSettings {
    return readControl(this.settings);
  }

  private meterNow(): MeterDataBody {
    const run = this.ensureLive();
    const today = counterUnits(run.flows, new Float64Array(COUNTER_COUNT));
    const before = this.history.ledger.unitsBefore(run.frame.day);
    const total = today.map((units, index) => units + (before[index] ?? 0));
    return meterDataWire(this.nowMs(), today, total);
  }

  private lastHeard(): { system: SystemDataBody; meter: MeterDataBody } {
    this.offlineSnapshot ??= this.snapshot();
    return this.offlineSnapshot;
  }

  /** What the cloud last heard before going offline. */
  private snapshot(): { system: SystemDataBody; meter: MeterDataBody } {
    return { system: systemDataWire(this.currentReading(), "LOST"), meter: this.meterNow() };
  }

  private isOffline(ms: number): boolean {
    if (this.offlineSince !== undefined && ms >= this.offlineSince) return true;
    return this.offlineSpans.some(([from, to]) => ms >= from && ms < to);
  }

  private activeFault(ms: number): Fault | undefined {
    const day = this.dayOf(ms);
    for (const candidate of [day - 1, day]) {
      for (const fault of faultsStartingOn(this.context, candidate)) {
        if (fault.startMs <= ms && ms < fault.endMs) return fault;
      }
    }
    return undefined;
  }
}
