import { dirname, join, resolve } from "node:path";
import type { LoadedRules } from "../rules/index.js";
import type { History, PublishedPrices } from "../store/index.js";
import type { Inventory } from "../telemetry/index.js";
import type { Clock } from "../time/index.js";
import { overlaps, type PlanHelp, type PlanLive, type PlanView, RULES_HELP } from "../web/index.js";

const DEFAULT_SOC = 50;
const DEFAULT_CAPACITY_KWH = 9.5;

/**
 * What the Plan page shows: the same model as `rules plan` (prices, every rule's windows, and the
 * battery half-hour by half-hour under them and the house's forecast use and solar, learned from
 * the store's history, and the optimiser's prices beyond the published ones forecast from those
 * the store kept), with how that forecast did over the last day.
 */
export function rulesPlan(
  loaded: LoadedRules | undefined,
  inventory: () => Inventory,
  history: Pick<History, "query"> | undefined,
  clock: Clock,
  prices?: Pick<PublishedPrices, "between">,
): (live: PlanLive) => Promise<PlanView | undefined> {
  return async ({ socPercent, car, calibrating }) => {
    if (!loaded) return undefined;
    const {
      CALIBRATION_PLAN_NOTE,
      PLAN_HOURS,
      carRules,
      defaultInverter,
      houseOutlook,
      noBatteryCost,
      plannedOverlaps,
      previewRules,
      priceHistoryOrTariffs,
      refreshedTariffs,
      rulesTimeZone,
    } = await import("../rules/index.js");
    const { rules } = loaded;
    const now = clock.now();
    const timeZone = rulesTimeZone(rules, inventory().timezone);
    const refreshed = await refreshedTariffs(rules, timeZone, now);
    const { tariffs } = refreshed;
    const notes = [...refreshed.notes];
    const inverter = inventory().inverters.find((one) => one.batteryCapacityKwh !== undefined);
    const capacityKwh = rules.battery.capacity_kwh ?? inverter?.batteryCapacityKwh ?? DEFAULT_CAPACITY_KWH;
    const capacitySource =
      rules.battery.capacity_kwh !== undefined
        ? "rules.yaml"
        : inverter?.batteryCapacityKwh !== undefined
          ? `inverter ${inverter.serial}`
          : "default";
    const soc = socPercent ?? DEFAULT_SOC;
    const outlook = history ? houseOutlook(history, { now, timeZone, slots: PLAN_HOURS * 2 + 1 }) : undefined;
    const house = outlook?.forecast;
    // The battery line and the expected cost are the page's own (PlanView.battery, expectedCost).
    notes.unshift(
      house && house.days > 0
        ? `The house's use and solar by time of day are estimated from ${house.days === 1 ? "1 day" : `${house.days} days`} of local history`
        : "The house's own use and solar are not modelled yet: the local history is empty",
    );
    if (calibrating) notes.unshift(CALIBRATION_PLAN_NOTE);
    const pastPrices = () =>
      priceHistoryOrTariffs(tariffs, prices, timeZone, now, (message) =>
        notes.push(
          `The stored prices could not be read (${message}): the optimiser's price forecast learns from the tariffs' own`,
        ),
      );
    // The car as the engine plans it; with no rules running, its plug state is not known.
    const plansCar = carRules(rules.rules).length > 0;
    const carState = plansCar ? (car ?? { plugged: null, topics: {}, deliveredKwh: {} }) : null;
    const preview = previewRules({
      rules,
      tariffs,
      timeZone,
      now,
      hours: PLAN_HOURS,
      state: { socPercent: soc, capacityKwh },
      ...(house ? { house } : {}),
      ...optionalInverter(defaultInverter(inventory())),
      priceHistory: pastPrices(),
      ...(carState ? { car: { state: carState } } : {}),
    });
    const check = outlook?.check;
    if (check) {
      notes.push(
        `Forecast against actual over the last day: use ${check.load.forecastKwh.toFixed(1)} kWh forecast, ${check.load.actualKwh.toFixed(1)} actual; solar ${check.solar.forecastKwh.toFixed(1)} forecast, ${check.solar.actualKwh.toFixed(1)} actual`,
      );
    }
    const planRules = preview.rules.map((rule) => ({
      name: rule.name,
      enabled: rule.enabled,
      dryRun: rule.dryRun,
      notes: rule.notes,
      windows: rule.windows.map((window) => ({
        start: window.start,
        end: window.end,
        trigger: window.trigger,
        actions: window.actions,
        readable: window.readable,
      })),
      explained: rule.explained,
      noBatteryCost: rule.explained.length > 0 ? noBatteryCost(rule.explained) : null,
    }));
    // Every rule's, on or off: the web API keeps those of the rules on as they are switched now.
    const contests = plannedOverlaps(rules.rules, new Map(preview.rules.map((rule) => [rule.name, rule.windows])));
    return {
      from: preview.from,
      to: preview.to,
      currency: rules.tariffs.currency,
      timeZone,
      slots: preview.slots.map((slot) => ({
        start: slot.start,
        import: slot.import ?? null,
        export: slot.export ?? null,
        estimated: slot.estimated,
      })),
      rules: planRules,
      conflicts: overlaps(planRules),
      soc: preview.expected.points,
      notes,
      hours: PLAN_HOURS,
      battery: {
        socPercent: soc,
        live: socPercent !== undefined,
        capacityKwh,
        capacitySource,
        ...(calibrating ? { calibrating: true } : {}),
      },
      expectedCost: preview.expected.cost,
      contests: contests.map(({ start, end, control, winner, loser, because }) => ({
        start,
        end,
        control,
        winner,
        loser,
        because,
      })),
      car: carState,
    };
  };
}

function optionalInverter(serial: string | undefined): { defaultInverter?: string } {
  return serial === undefined ? {} : { defaultInverter: serial };
}

/** What an empty Plan page says: the rules file beside the configuration, named in it as `rules: rules.yaml`. */
export function rulesHelp(configFile: string | undefined): PlanHelp {
  if (configFile === undefined) return RULES_HELP;
  const file = resolve(configFile);
  return { ...RULES_HELP, configFile: file, rulesFile: join(dirname(file), "rules.yaml") };
}
