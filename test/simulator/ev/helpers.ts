import { chargerMeterRecord, chargingSession, evCharger } from "../../../src/cloud/schemas/ev-charger.js";
import {
  type ChargerActor,
  ChargerModel,
  type ChargerOptions,
  type ChargerSpec,
} from "../../../src/simulator/ev/index.js";
import { CarPlan, DAY_MS, dayOf, MINUTE_MS, type Visit } from "../../../src/simulator/ev/plan.js";

export { DAY_MS, MINUTE_MS };
export const HOUR_MS = 60 * MINUTE_MS;
export const SEED = 20250303;
/** A Monday at noon UTC: the car is out. */
export const START = Date.UTC(2025, 2, 3, 12, 0);
export const ACTOR: ChargerActor = { userId: "4711" };
export const TAG = "04A2B3C4D5";

export function spec(overrides: Partial<ChargerSpec> = {}): ChargerSpec {
  return {
    uuid: "9c6f3c1e-6b2a-4f3e-9a51-2b7d1c0e8f44",
    serialNumber: "GEEVC2301234",
    type: "GivEnergy EV Charger",
    alias: "Driveway",
    commissionDate: Date.UTC(2024, 8, 1),
    configurationMode: "C",
    premium: false,
    maxCurrentA: 32,
    voltage: 230,
    phases: 1,
    car: { batteryKwh: 60, maxCurrentA: 32 },
    ...overrides,
  };
}

export function charger(overrides: Partial<ChargerSpec> = {}, options?: ChargerOptions, seed = SEED): ChargerModel {
  return new ChargerModel(spec(overrides), seed, START, options);
}

/** The first stay of the car that begins after `afterMs`. */
export function nextVisit(afterMs: number, seed = SEED): Visit {
  const plan = new CarPlan(seed);
  for (let day = dayOf(afterMs); day < dayOf(afterMs) + 30; day++) {
    const visit = plan.visitOn(day);
    if (visit && visit.arriveMs > afterMs) return visit;
  }
  throw new Error("no visit within 30 days");
}

/** Sends a command and expects the ordinary 200 answer. */
export function send(model: ChargerModel, command: string, body: unknown = {}) {
  const answer = model.sendCommand(command, body, ACTOR);
  if (answer.status !== 200) throw new Error(`expected 200, got 422: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** A charger without tags or plug and go, with the car just plugged in and waiting. */
export function pluggedIn(overrides: Partial<ChargerSpec> = {}, options?: ChargerOptions) {
  const model = charger(overrides, options);
  send(model, "set-plug-and-go", { enabled: false });
  const visit = nextVisit(START);
  model.advanceTo(visit.arriveMs);
  return { model, visit };
}

export function sessions(model: ChargerModel, q: { startMs?: number; endMs?: number } = {}) {
  return model.sessions(q).map((session) => chargingSession.parse(session));
}

export function info(model: ChargerModel) {
  return evCharger.parse(model.info());
}

export function meter(model: ChargerModel, startMs: number, endMs: number, measurands: number[] = []) {
  return model
    .meterData({ startMs, endMs, measurands, meterIds: [0] })
    .map((record) => chargerMeterRecord.parse(record));
}

/** The value of one measurand in a record. */
export function reading(record: { measurements: { measurand: number; value: number }[] }, measurand: number) {
  return record.measurements.find((m) => m.measurand === measurand)?.value;
}
