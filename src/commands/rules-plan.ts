import { existsSync, writeFileSync } from "node:fs";
import type { Config } from "../config/index.js";
import {
  CALIBRATION_PLAN_NOTE,
  carRules,
  type ForecastCheck,
  forecastDaysLine,
  houseForecaster,
  houseOutlook,
  PLAN_HOURS,
  type Preview,
  type PriceHistory,
  plannedOverlaps,
  planSvg,
  planText,
  previewRules,
  priceHistory,
  type RefreshedTariffs,
  refreshedTariffs,
  rulesTimeZone,
  type SolarForecastConfig,
  sharedControlLines,
  withProviderSolar,
} from "../rules/index.js";
import { cloudClient } from "../sources/cloud/index.js";
import { discoverInventory } from "../sources/index.js";
import { systemClock } from "../time/index.js";
import { type DaemonAnswer, daemonBattery } from "./daemon-battery.js";
import { type CarFlags, carByHand, carFromDaemon } from "./rules-plan-car.js";
import { cliLogger, openStoreOr, readRulesInput } from "./shared.js";

export interface RulesPlanOptions extends CarFlags {
  readonly config?: string;
  /** A rules file instead of the one the configuration names. */
  readonly rules?: string;
  readonly hours?: string;
  readonly out?: string;
  /** Battery SoC now, %. */
  readonly soc?: string;
  /** Battery capacity, kWh, when rules.yaml leaves battery.capacity_kwh out. */
  readonly capacity?: string;
  /** Plan as if it were this time (ISO 8601), for a repeatable plan. */
  readonly now?: string;
  /** Print the optimise rules' explained half-hours as JSON instead of the text plan. */
  readonly json?: boolean;
}

const DEFAULT_SOC = 50;
const DEFAULT_CAPACITY_KWH = 9.5;

/** `energy2mqtt rules plan`: the next hours of prices, planned windows and actions, and the battery SoC. */
export async function runRulesPlanCommand(
  options: RulesPlanOptions,
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  const usage = (message: string): number => {
    err.write(`${message}\n`);
    return 2;
  };
  const hours = Number(options.hours ?? PLAN_HOURS);
  if (!Number.isInteger(hours) || hours < 1 || hours > 168)
    return usage("--hours must be a whole number from 1 to 168");
  const soc = Number(options.soc ?? DEFAULT_SOC);
  if (!Number.isFinite(soc) || soc < 0 || soc > 100) return usage("--soc must be a percentage from 0 to 100");
  const capacityOption = options.capacity === undefined ? undefined : Number(options.capacity);
  if (capacityOption !== undefined && !(capacityOption > 0))
    return usage("--capacity must be a positive number of kWh");
  const now = options.now === undefined ? systemClock.now() : Date.parse(options.now);
  if (Number.isNaN(now)) return usage("--now must be an ISO 8601 time, e.g. 2026-11-22T16:00:00Z");
  if (options.out && !options.out.toLowerCase().endsWith(".svg"))
    return usage("--out writes an SVG image: name it FILE.svg");

  const read = readRulesInput(options);
  if ("problem" in read) return usage(read.problem);
  const { config, rules } = read;

  const byHand = carByHand(options, rules);
  if ("problem" in byHand) return usage(byHand.problem);
  const plansCar = carRules(rules.rules).length > 0;

  const header: string[] = [];
  // The battery the running daemon plans from (its Plan page's), else the cloud's, else the defaults.
  const needsLive =
    options.soc === undefined || (rules.battery.capacity_kwh === undefined && capacityOption === undefined);
  // The car the running daemon plans, unless the flags tell it.
  const needsCar = plansCar && "none" in byHand;
  const answer = needsLive || needsCar ? await daemonBattery(config) : undefined;
  const daemon = answer && "found" in answer ? answer.found : undefined;
  const live = needsLive && !daemon ? await liveBattery(config, header) : undefined;
  const timeZone = rulesTimeZone(rules, daemon?.timeZone ?? live?.timeZone);
  const { tariffs, notes } = await refreshedTariffs(rules, timeZone, now);
  header.push(...notes);
  const capacityKwh =
    rules.battery.capacity_kwh ?? capacityOption ?? daemon?.capacityKwh ?? live?.capacityKwh ?? DEFAULT_CAPACITY_KWH;
  const capacitySource =
    rules.battery.capacity_kwh !== undefined
      ? "rules.yaml"
      : capacityOption !== undefined
        ? "--capacity"
        : daemon
          ? `the running daemon's, from ${daemon.capacitySource}`
          : live?.capacityKwh !== undefined
            ? `inverter ${live.serial}`
            : "default";
  const socNow = options.soc === undefined ? (daemon?.socPercent ?? live?.socPercent ?? soc) : soc;
  const socSource =
    options.soc !== undefined
      ? "--soc"
      : daemon
        ? daemon.live
          ? "live, from the running daemon"
          : "assumed by the running daemon, which has no reading yet"
        : live?.socPercent !== undefined
          ? `inverter ${live.serial}`
          : "default; pass --soc";
  const socLine = options.soc === undefined ? socStatement(socNow, answer, live) : undefined;
  const house = await storedHouse(config, now, timeZone, hours, err, rules.solar_forecast);
  if (daemon?.calibrating) header.push(CALIBRATION_PLAN_NOTE);
  if (house?.check) header.push(checkLine(house.check));
  if (house?.solarLines) header.push(...house.solarLines);
  header.unshift(
    `Battery: ${socNow}% now (${socSource}) of ${capacityKwh} kWh (${capacitySource}); ${
      house && house.days > 0
        ? `the house's use ${house.providerSolar ? "" : "and solar "}by time of day learned from ${house.days === 1 ? "1 day" : `${house.days} days`} of the store's history${house.providerSolar ? ", its solar from the forecast below" : ""}`
        : "the house's own use is not modelled"
    }`,
  );
  if (socLine) header.splice(1, 0, socLine);
  // The car as told by the flags, else as the running daemon knows it (a line saying which, or why none).
  const fromDaemon = needsCar ? carFromDaemon(answer, rules) : undefined;
  const planCar = "car" in byHand ? byHand.car : fromDaemon?.car;
  const carLine = "car" in byHand ? byHand.told : fromDaemon?.line;
  if (carLine) header.splice(socLine ? 2 : 1, 0, carLine);
  const carSource = "car" in byHand ? "flags" : planCar ? "daemon" : "unknown";

  const preview = previewRules({
    rules,
    tariffs,
    timeZone,
    now,
    hours,
    state: { socPercent: socNow, capacityKwh },
    ...(house ? { house } : {}),
    priceHistory: storedPriceHistory(config, tariffs, timeZone, now, err),
    ...(planCar ? { car: planCar } : {}),
  });
  header.push(
    `Expected over these hours: ${preview.expected.cost.toFixed(2)} ${rules.tariffs.currency} for import less export`,
  );
  if (options.json) {
    const battery = { socPercent: socNow, socSource, capacityKwh, capacitySource };
    const carJson = plansCar
      ? { car: { source: carSource, ...(planCar ? { ...planCar.state, needKwh: planCar.needKwh ?? null } : {}) } }
      : {};
    out.write(
      `${JSON.stringify({ ...explainedPlan(preview, timeZone, rules.tariffs.currency), battery, ...carJson }, null, 2)}\n`,
    );
    // stdout stays one JSON document: the SVG's note goes to stderr.
    if (options.out) {
      writeFileSync(options.out, planSvg(preview, { timeZone, currency: rules.tariffs.currency }));
      err.write(`SVG written to ${options.out}\n`);
    }
    return 0;
  }
  const shared = {
    lines: sharedControlLines(rules.rules),
    overlaps: plannedOverlaps(rules.rules, new Map(preview.rules.map((rule) => [rule.name, rule.windows]))),
  };
  out.write(planText(preview, { timeZone, currency: rules.tariffs.currency, header, shared }));
  if (options.out) {
    writeFileSync(options.out, planSvg(preview, { timeZone, currency: rules.tariffs.currency }));
    out.write(`\nSVG written to ${options.out}\n`);
  }
  return 0;
}

/** `--json`: the optimise rules' half-hours, each with its reason (ExplainedSlot rows). */
function explainedPlan(preview: Preview, timeZone: string, currency: string) {
  return {
    from: new Date(preview.from).toISOString(),
    to: new Date(preview.to).toISOString(),
    timeZone,
    currency,
    rules: preview.rules
      .filter((rule) => rule.explained.length > 0)
      .map((rule) => ({ name: rule.name, notes: rule.notes, slots: rule.explained })),
  };
}

/**
 * The house's forecast from the store the configuration names, and how it did over the last day;
 * with a solar provider, its solar (one request, within the service's budget), where it came from,
 * and the last days' forecast against actual.
 */
async function storedHouse(
  config: Config,
  now: number,
  timeZone: string,
  hours: number,
  err: NodeJS.WritableStream,
  solar: SolarForecastConfig | undefined,
) {
  if (!existsSync(config.store.path)) return undefined;
  const store = openStoreOr(config, err, "the house's history is left out: ");
  if (typeof store === "number") return undefined;
  try {
    const { forecast, check } = houseOutlook(store.history, { now, timeZone, slots: hours * 2 + 1 });
    if (!solar) return { ...forecast, check, solarLines: [], providerSolar: false };
    const forecaster = houseForecaster(store, { timeZone, config: solar });
    await forecaster.refresh(now);
    const attributed = withProviderSolar(forecast, forecaster.solar(now), now);
    const solarLines = [
      `Solar forecast: ${attributed.solarFrom}`,
      forecastDaysLine(solar.provider, store.solarForecasts.lastDays(solar.provider, 7)),
    ];
    return { ...attributed, check, solarLines, providerSolar: !attributed.solarFrom.startsWith("learned") };
  } finally {
    store.close();
  }
}

/**
 * The prices published over the last two weeks, as the daemon's optimiser forecasts from them:
 * what the tariffs hold now and what the store kept of the days before (the daemon keeps them at
 * each refresh), so that beyond the published prices this plan is the daemon's.
 */
function storedPriceHistory(
  config: Config,
  tariffs: RefreshedTariffs["tariffs"],
  timeZone: string,
  now: number,
  err: NodeJS.WritableStream,
): PriceHistory {
  if (!existsSync(config.store.path)) return priceHistory(tariffs, undefined, timeZone, now);
  const store = openStoreOr(config, err, "the stored prices are left out: ");
  if (typeof store === "number") return priceHistory(tariffs, undefined, timeZone, now);
  try {
    return priceHistory(tariffs, store.publishedPrices, timeZone, now);
  } finally {
    store.close();
  }
}

/** "House forecast against actual, last day: use 9.1 kWh forecast, 8.4 actual (mean error 0.12 kWh a half-hour); ..." */
function checkLine(check: ForecastCheck): string {
  const part = (name: string, one: ForecastCheck["load"]) =>
    `${name} ${one.forecastKwh.toFixed(1)} kWh forecast, ${one.actualKwh.toFixed(1)} actual (mean error ${one.meanErrorKwh.toFixed(2)} kWh a half-hour)`;
  return `House forecast against actual over the last day (${check.slots} half-hours): ${part("use", check.load)}; ${part("solar", check.solar)}`;
}

/**
 * Which SoC the plan starts from and why, in one line: the running daemon's (the Plan page's), or
 * what is assumed when none answers and how to give the real one.
 */
function socStatement(socPercent: number, answer: DaemonAnswer | undefined, live: LiveBattery | undefined): string {
  const soc = `${Number(socPercent.toFixed(1))}%`;
  if (answer && "found" in answer)
    return answer.found.live
      ? `Using the live SoC ${soc} from the running daemon at ${answer.found.url} (the SoC its Plan page plans from); pass --soc to plan from another`
      : `The running daemon at ${answer.found.url} has no SoC reading yet and assumes ${soc}, as its Plan page does; pass --soc to plan from another`;
  const why = answer ? ("none" in answer ? answer.none : answer.other) : "no daemon asked";
  if (live?.socPercent !== undefined)
    return `${capitalised(why)}: using the SoC ${soc} of inverter ${live.serial}, read from the cloud`;
  return `${capitalised(why)}: assuming a SoC of ${soc} (the default); pass --soc PERCENT to plan from the battery's real SoC`;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

interface LiveBattery {
  readonly serial: string;
  readonly timeZone: string;
  readonly socPercent?: number;
  readonly capacityKwh?: number;
}

/** The first stand-alone inverter's battery as the cloud reports it now; undefined without a cloud. */
async function liveBattery(config: Config, header: string[]): Promise<LiveBattery | undefined> {
  const { url, token } = config.cloud;
  if (!url || !token) return undefined;
  try {
    const client = cloudClient(config, url, token);
    const inventory = await discoverInventory(client, { logger: cliLogger(config) });
    const inverter = inventory.inverters.find((i) => i.emsSerial === undefined) ?? inventory.inverters[0];
    if (!inverter) return undefined;
    const data = await client.inverterData.systemDataLatest(inverter.serial);
    const percent = data.battery?.percent;
    return {
      serial: inverter.serial,
      timeZone: inventory.timezone,
      ...(typeof percent === "number" ? { socPercent: percent } : {}),
      ...(inverter.batteryCapacityKwh !== undefined ? { capacityKwh: inverter.batteryCapacityKwh } : {}),
    };
  } catch (error) {
    header.push(`could not read the battery from the cloud (${(error as Error).message}); using the defaults`);
    return undefined;
  }
}
