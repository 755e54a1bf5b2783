import { type CarRule, carRules, carTargetIsSoc, type PreviewCar, type RulesFile } from "../rules/index.js";
import type { CarState } from "../rules-runtime/index.js";
import type { DaemonAnswer } from "./daemon-battery.js";

/** `rules plan`'s car flags, as typed. */
export interface CarFlags {
  /** Plan as if a car were plugged in now. */
  readonly carPlugged?: boolean | undefined;
  /** The kWh the car still needs by its deadline (implies --car-plugged). */
  readonly carNeedKwh?: string | undefined;
  /** The car's own SoC now, %, for a soc: target (implies --car-plugged). */
  readonly carSoc?: string | undefined;
}

/** The car flags checked against the rules: the car told by hand, none given, or what to fix. */
export type CarByHand =
  | { readonly none: true }
  | { readonly car: PreviewCar; readonly told: string }
  | { readonly problem: string };

/** Checks the car flags: numbers in range, one target at a time, and a car in the rules to plan. */
export function carByHand(flags: CarFlags, rules: RulesFile): CarByHand {
  const given = [
    flags.carPlugged ? "--car-plugged" : undefined,
    flags.carNeedKwh !== undefined ? "--car-need-kwh" : undefined,
    flags.carSoc !== undefined ? "--car-soc" : undefined,
  ].filter((flag) => flag !== undefined);
  if (given.length === 0) return { none: true };
  const needKwh = flags.carNeedKwh === undefined ? undefined : Number(flags.carNeedKwh);
  if (needKwh !== undefined && !(Number.isFinite(needKwh) && needKwh >= 0 && needKwh <= 250))
    return { problem: "--car-need-kwh must be a number of kWh from 0 to 250, e.g. --car-need-kwh 20" };
  const soc = flags.carSoc === undefined ? undefined : Number(flags.carSoc);
  if (soc !== undefined && !(Number.isFinite(soc) && soc >= 0 && soc <= 100))
    return { problem: "--car-soc must be the car's SoC, a percentage from 0 to 100, e.g. --car-soc 35" };
  if (needKwh !== undefined && soc !== undefined)
    return {
      problem: "give --car-need-kwh or --car-soc, not both: the kWh the car needs replaces its SoC target",
    };
  const cars = carRules(rules.rules);
  if (cars.length === 0)
    return {
      problem: `${given.join(" and ")}: the rules file has no optimise rule with a car (optimise: car:), so there is no car to plan; see docs/rules.md, "The car in the same plan"`,
    };
  const kwhOnly = cars.filter((car) => !carTargetIsSoc(car.spec));
  if (soc !== undefined && kwhOnly.length > 0)
    return {
      problem: `--car-soc is the car's own SoC for a soc: target, but the car of rule ${kwhOnly[0]?.rule} has a kWh target: pass --car-need-kwh KWH instead`,
    };
  const topics: Record<string, number> = {};
  if (soc !== undefined) for (const car of cars) if (car.spec.soc_topic) topics[car.spec.soc_topic] = soc;
  const state: CarState = { plugged: true, topics, deliveredKwh: {} };
  const what =
    needKwh !== undefined
      ? `needing ${needKwh} kWh by ${deadlines(cars)} (--car-need-kwh)`
      : soc !== undefined
        ? `its SoC ${soc}% (--car-soc)`
        : `nothing delivered yet toward ${deadlines(cars)}`;
  return {
    car: { state, ...(needKwh === undefined ? {} : { needKwh }) },
    told: `Car: plugged in (${given.includes("--car-plugged") ? "--car-plugged" : `implied by ${given.join(" and ")}`}), ${what}`,
  };
}

/** The car from the running daemon, or why there is none: the header's car line and the plan's car. */
export function carFromDaemon(
  answer: DaemonAnswer | undefined,
  rules: RulesFile,
): { readonly car: PreviewCar | undefined; readonly line: string } {
  const cars = carRules(rules.rules);
  const byHand = `pass --car-plugged (with --car-need-kwh KWH${cars.some((car) => carTargetIsSoc(car.spec)) ? " or --car-soc PERCENT" : ""}) to plan one`;
  if (!answer || !("found" in answer)) {
    const why = answer ? ("none" in answer ? answer.none : answer.other) : "no daemon asked";
    return { car: undefined, line: `No car: the charger's state is unknown (${why}); ${byHand}` };
  }
  const { url, car } = answer.found;
  if (!car)
    return {
      car: undefined,
      line: `No car: the charger's state is unknown (the running daemon at ${url} gave none); ${byHand}`,
    };
  if (car.plugged === null)
    return {
      car: { state: car },
      line: `No car: the charger's state is unknown (the running daemon at ${url} has had no status from it yet); ${byHand}`,
    };
  if (!car.plugged)
    return {
      car: { state: car },
      line: `No car: not plugged in, says the running daemon at ${url}; ${byHand}`,
    };
  // What was delivered counts toward a kWh target only; a SoC target reads the car's own SoC.
  const delivered = cars
    .filter((one) => !carTargetIsSoc(one.spec))
    .map((one) => `${(car.deliveredKwh[one.rule] ?? 0).toFixed(1)} kWh delivered toward ${one.spec.by}`)
    .join(", ");
  const told = [
    ...(delivered ? [delivered] : []),
    ...Object.entries(car.topics).map(([topic, value]) => `${value} on ${topic}`),
  ];
  return {
    car: { state: car },
    line: `Car: plugged in, from the running daemon at ${url} (the Plan page's car)${told.length ? `: ${told.join("; ")}` : ""}`,
  };
}

function deadlines(cars: readonly CarRule[]): string {
  return [...new Set(cars.map((car) => car.spec.by))].join(" and ");
}
