import { existsSync } from "node:fs";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import {
  BACKTEST_POLICIES,
  type BacktestOptions,
  type BacktestPolicy,
  type BacktestResult,
  backtestTable,
  checkBacktestOptions,
  configuredPrices,
  houseBattery,
  meteredHalfHours,
  notReplayed,
  octopusTariffPrices,
  type PricedTariff,
  runBacktest,
  SolverMissingError,
} from "../backtest/index.js";
import { DEMO_HISTORY_DAYS, DEMO_STORE_FILE, isDemo } from "../demo/store.js";
import { DEMO_YEAR_INVERTER, DEMO_YEAR_SOURCES, seedDemoYear } from "../demo/year-history.js";
import { rulesTimeZone } from "../rules/index.js";
import { addDays, type Clock, dayEndMs, dayOf, dayStartMs, systemClock } from "../time/index.js";
import { openStoreOr, readRulesInput } from "./shared.js";

const DEFAULT_CAPACITY_KWH = 9.5;
const MAX_DAYS = 400;
/** Without --from: a year back from --to, or from the first day the store metered, whichever is later. */
const DEFAULT_DAYS = 365;

/**
 * `energy2mqtt backtest`: the store's own half-hours replayed under each policy (what happened, no
 * battery, eco only, the rules file's optimise rule, the optimiser, the exact optimum) and tariff.
 */
export async function runBacktestCommand(
  input: BacktestOptions,
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
  clock: Clock = systemClock,
): Promise<number> {
  const usage = (message: string): number => {
    err.write(`${message}\n`);
    return 2;
  };
  const checked = checkBacktestOptions(input);
  if ("problem" in checked) return usage(checked.problem);
  const { options, specs } = checked;

  const read = readRulesInput(options);
  if ("problem" in read) return usage(read.problem);
  const { file, rules } = read;
  const config = options.store ? { ...read.config, store: { ...read.config.store, path: options.store } } : read.config;
  if (!rules.tariffs.import && specs.length === 0)
    return usage(`${file}: a backtest needs prices: an import tariff (tariffs.import) or --tariff`);
  const demo = options.store === undefined && isDemo(config) && basename(config.store.path) === DEMO_STORE_FILE;
  if (!demo && !existsSync(config.store.path))
    return usage(`no store at ${config.store.path}: run the daemon (or \`energy2mqtt archive\`) to fill it first`);

  const now = clock.now();
  const timeZone = rulesTimeZone(rules, undefined);
  const store = openStoreOr(config, err);
  if (typeof store === "number") return store;
  try {
    if (demo) {
      // The demo house's year, written at its first backtest (the daemon's start stays as fast).
      const started = performance.now();
      const seed = await seedDemoYear(store, {
        now,
        timeZone,
        device: DEMO_YEAR_INVERTER,
        simulatedDays: DEMO_HISTORY_DAYS,
        root: fileURLToPath(new URL("../../", import.meta.url)),
      });
      if (seed.seeded)
        err.write(
          `backtest: the demo house's year of history written to ${config.store.path} in ${((performance.now() - started) / 1000).toFixed(1)} s (${DEMO_YEAR_SOURCES.length} published sources: test/fixtures/planner-year/README.md)\n`,
        );
    }
    const to = options.to ?? addDays(dayOf(now, timeZone), -1);
    const firstMetered = store.history.summary().find((row) => row.kind === "inverter.point")?.first;
    const earliest = addDays(to, 1 - DEFAULT_DAYS);
    const metered = firstMetered === undefined ? to : dayOf(firstMetered, timeZone);
    const from = options.from ?? (metered > earliest ? metered : earliest);
    if (from > to) return usage(`--from ${from} is after --to ${to}`);
    if ((dayStartMs(to, timeZone) - dayStartMs(from, timeZone)) / 86_400_000 >= MAX_DAYS)
      return usage(`--from to --to spans more than ${MAX_DAYS} days: ask for a shorter range`);

    const house = meteredHalfHours(store.history, dayStartMs(from, timeZone), dayEndMs(to, timeZone));
    if (house.missing === house.starts.length)
      return usage(`the store ${config.store.path} has no metered half-hours from ${from} to ${to}`);
    const capacityKwh = options.batteryKwh ?? rules.battery.capacity_kwh ?? DEFAULT_CAPACITY_KWH;
    const capacitySource =
      options.batteryKwh !== undefined
        ? "--battery-kwh"
        : rules.battery.capacity_kwh !== undefined
          ? "the rules file's battery.capacity_kwh"
          : "a default: give --battery-kwh";
    const battery = houseBattery(rules, capacityKwh);
    const rulesPolicy = rules.rules.some((rule) => rule.enabled) ? { file } : undefined;
    const notes: string[] = [];
    const tariffs: PricedTariff[] = [];
    if (rules.tariffs.import) {
      const configured = await configuredPrices(rules, timeZone, now, store.publishedPrices, house.starts);
      tariffs.push(configured.tariff);
      notes.push(...configured.notes);
    }
    for (const spec of specs) {
      const priced = await octopusTariffPrices(spec, {
        region: options.region as string,
        timeZone,
        now,
        starts: house.starts,
        archive: store.archivedPrices,
        ...(options.octopusUrl ? { baseUrl: options.octopusUrl } : {}),
        exportFallback: tariffs[0]?.exportPrice,
      });
      if (typeof priced === "string") {
        err.write(`--tariff ${spec.name}: ${priced}\n`);
        return 1;
      }
      tariffs.push(priced);
    }
    const policies = options.policies ?? [...BACKTEST_POLICIES];
    if (policies.includes("rules") && !rulesPolicy) notes.push(`rules: left out, ${file} has no rule switched on`);
    const unreplayed = notReplayed(rules);
    if (policies.includes("rules") && rulesPolicy && unreplayed.length > 0)
      notes.push(
        `rules not replayed, having no meaning in a replay (the metered load already holds what the car drew): ${unreplayed.join("; ")}`,
      );
    const long = house.starts.length > 7 * 48;
    const told = new Map<string, number>();
    const result: BacktestResult | undefined = await runBacktest({
      from,
      to,
      timeZone,
      by: options.by,
      house,
      tariffs,
      battery,
      capacitySource,
      initialSocPercent: house.firstSocPercent ?? 50,
      policies: policies as BacktestPolicy[],
      ...(rulesPolicy ? { rules: rulesPolicy } : {}),
      notes,
      onProgress: (tariff, policy, done) => {
        if (!long) return;
        const key = `${tariff} ${policy}`;
        const quarter = Math.floor(done * 4);
        if ((told.get(key) ?? -1) >= quarter) return;
        told.set(key, quarter);
        err.write(`backtest: ${key} ${quarter * 25}%\n`);
      },
    }).catch((error: Error) => {
      if (!(error instanceof SolverMissingError)) throw error;
      err.write(
        `${error.message}; or leave it out: --policies ${policies.filter((one) => one !== "exact-optimum").join(",")}\n`,
      );
      return undefined;
    });
    if (!result) return 1;
    out.write(options.json ? `${JSON.stringify(result, null, 2)}\n` : backtestTable(result));
    return 0;
  } finally {
    store.close();
  }
}
