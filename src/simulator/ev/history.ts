import { STARTED_BY_INVERTER_CONTROL, STARTED_BY_PLUG_AND_GO } from "../../cloud/index.js";
import { arrivalSoc, type CarPlan, dayOf, HOUR_MS, INITIAL_CAR_SOC, type Visit } from "./plan.js";
import type { MeterState, Session } from "./types.js";

/** How the charger behaved before the simulation started: its factory settings and no surplus. */
export interface HistoryRules {
  /** Starts every stay at arrival (plug and go, inverter control), or null. */
  autoStarter: string | null;
  /** The tag tapped on evenings the householder taps, or null without tags. */
  tagId: string | null;
  /** Amps offered while a session runs. */
  offeredA: number;
  /** Watts the car draws until it is full. */
  powerW: number;
  batteryKwh: number;
}

interface PastStay {
  visit: Visit;
  arrivalSoc: number;
  registerAtArrival: number;
  startedBy: string | null;
  startedAt: number;
  /** When the car was full or left, whichever came first (before the simulation's start). */
  chargedUntil: number;
  energyKwh: number;
}

/** Where history leaves the charger when the live model takes over. */
export interface Handover {
  registerKwh: number;
  carSoc: number;
  lastVisitDay: number | null;
  /** The stay under way at the start, if the car is home. */
  visit: Visit | null;
  /** The session open at the start, owned by the live model from then on. */
  openSession: Session | null;
}

/**
 * Charger history from commissioning to the simulation's start, in closed form: each stay
 * charges at one steady power from its start until the car is full or leaves, so any past
 * five-minute reading is computed on demand from the stay it falls in.
 */
export class ChargerHistory {
  private readonly stays: PastStay[] = [];
  readonly handover: Handover;

  constructor(
    plan: CarPlan,
    commissionMs: number,
    private readonly startMs: number,
    private readonly rules: HistoryRules,
  ) {
    let register = 0;
    let soc = INITIAL_CAR_SOC;
    let lastVisitDay: number | null = null;
    let current: PastStay | null = null;
    for (let day = dayOf(commissionMs); day <= dayOf(startMs); day++) {
      const visit = plan.visitOn(day);
      if (!visit || visit.arriveMs < commissionMs || visit.arriveMs >= startMs) continue;
      const stay = this.stay(visit, arrivalSoc(soc, visit, lastVisitDay), register);
      this.stays.push(stay);
      register += stay.energyKwh;
      soc = stay.arrivalSoc + (stay.energyKwh / rules.batteryKwh) * 100;
      lastVisitDay = visit.day;
      current = visit.departMs >= startMs ? stay : null;
    }
    this.handover = {
      registerKwh: register,
      carSoc: soc,
      lastVisitDay,
      visit: current?.visit ?? null,
      openSession: current && current.startedBy !== null ? this.session(current, current.startedBy) : null,
    };
  }

  /** Sessions stopped before the start, oldest first. */
  closedSessions(): Session[] {
    const sessions: Session[] = [];
    for (const stay of this.stays) {
      if (stay.startedBy !== null && stay.visit.departMs < this.startMs)
        sessions.push(this.session(stay, stay.startedBy));
    }
    return sessions;
  }

  /** The meter at `ms`, which must be before the start. */
  meterAt(ms: number): MeterState {
    const stay = this.stayAtOrBefore(ms);
    if (!stay) return { registerKwh: 0, powerW: 0, offeredA: 0, socPercent: null };
    const home = ms < stay.visit.departMs;
    const charging = stay.startedBy !== null && ms >= stay.startedAt;
    const chargedMs = charging ? Math.min(ms, stay.chargedUntil) - stay.startedAt : 0;
    const energy = home ? (this.rules.powerW / 1000) * (chargedMs / HOUR_MS) : stay.energyKwh;
    return {
      registerKwh: stay.registerAtArrival + energy,
      powerW: home && charging && ms < stay.chargedUntil ? this.rules.powerW : 0,
      offeredA: home && charging ? this.rules.offeredA : 0,
      socPercent: home ? stay.arrivalSoc + (energy / this.rules.batteryKwh) * 100 : null,
    };
  }

  private stay(visit: Visit, soc: number, register: number): PastStay {
    const { autoStarter, tagId, powerW, batteryKwh } = this.rules;
    const startedBy = autoStarter ?? (visit.tapMs !== null ? tagId : null);
    const startedAt = autoStarter !== null ? visit.arriveMs : (visit.tapMs ?? visit.arriveMs);
    const end = Math.min(visit.departMs, this.startMs);
    if (startedBy === null || startedAt >= end || powerW <= 0) {
      return {
        visit,
        arrivalSoc: soc,
        registerAtArrival: register,
        startedBy: null,
        startedAt,
        chargedUntil: startedAt,
        energyKwh: 0,
      };
    }
    const toFullMs = (((100 - soc) / 100) * batteryKwh * HOUR_MS) / (powerW / 1000);
    const chargedUntil = Math.min(end, startedAt + toFullMs);
    const energyKwh = (powerW / 1000) * ((chargedUntil - startedAt) / HOUR_MS);
    return { visit, arrivalSoc: soc, registerAtArrival: register, startedBy, startedAt, chargedUntil, energyKwh };
  }

  private session(stay: PastStay, startedBy: string): Session {
    const stopped = stay.visit.departMs < this.startMs;
    return {
      startedBy,
      meterStart: stay.registerAtArrival,
      startedAt: stay.startedAt,
      stoppedBy: stopped ? startedBy : null,
      meterStop: stopped ? stay.registerAtArrival + stay.energyKwh : null,
      stoppedAt: stopped ? stay.visit.departMs : null,
      stopReason: stopped ? "EVDisconnected" : null,
    };
  }

  private stayAtOrBefore(ms: number): PastStay | undefined {
    let low = 0;
    let high = this.stays.length - 1;
    let found: PastStay | undefined;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const stay = this.stays[middle];
      if (stay && stay.visit.arriveMs <= ms) {
        found = stay;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    return found;
  }
}

/** Who starts a stay's session on arrival under the factory settings. */
export function historyAutoStarter(mode: string, plugAndGo: boolean): string | null {
  if (mode === "ModbusSlave") return STARTED_BY_INVERTER_CONTROL;
  return plugAndGo ? STARTED_BY_PLUG_AND_GO : null;
}
