import type { HouseSavingsRange, SavingsRange } from "../rules-runtime/index.js";
import type { HistorySavings, HistoryScopeName } from "./api-types.js";

/**
 * The savings as the History page, its CSV and the API give them: the house's (the months whole,
 * as on MQTT), the scope's own from its inverters' counters, and for several inverters each one's
 * own beside the scope's, with the difference their sum leaves.
 */
export function scopeSavings(savings: HouseSavingsRange, scope: HistoryScopeName): HistorySavings {
  const own = savings.group(scope.members);
  const parts = scope.members.length > 1 ? scope.members.map((device) => ({ device, ...savings.group([device]) })) : [];
  return {
    house: {
      days: savings.days.map(({ day, actual, noBattery, ecoOnly, savedVsNoBattery, savedVsEcoOnly }) => ({
        day,
        actual,
        noBattery,
        ecoOnly,
        savedVsNoBattery,
        savedVsEcoOnly,
      })),
      months: savings.months.map(({ month, days, actual, savedVsNoBattery, savedVsEcoOnly }) => ({
        month,
        days,
        actual,
        savedVsNoBattery,
        savedVsEcoOnly,
      })),
    },
    scope: {
      kind: scope.kind,
      days: own.days.map(({ day, actual, noBattery, savedVsNoBattery }) => ({
        day,
        actual,
        noBattery,
        savedVsNoBattery,
      })),
      months: own.months.map(({ month, days, actual, savedVsNoBattery }) => ({
        month,
        days,
        actual,
        savedVsNoBattery,
      })),
    },
    parts: parts.length === 0 ? null : partsOf(own, parts),
  };
}

function partsOf(own: SavingsRange, parts: readonly ({ device: string } & SavingsRange)[]): HistorySavings["parts"] {
  return own.months.map(({ month, savedVsNoBattery }) => {
    const inverters = parts.map(({ device, months }) => ({
      device,
      savedVsNoBattery: months.find((one) => one.month === month)?.savedVsNoBattery ?? 0,
    }));
    const sum = inverters.reduce((total, one) => total + one.savedVsNoBattery, 0);
    return { month, inverters, sum, difference: savedVsNoBattery - sum };
  });
}
