import { existsSync } from "node:fs";
import { z } from "zod";
import {
  computeSavings,
  meteredGroup,
  OctopusTariff,
  readMeteredInverters,
  refreshedTariffs,
  rulesTimeZone,
  type Savings,
  type SavingsDay,
  savingsBattery,
  withoutStandingCharge,
  withStoredPrices,
} from "../rules/index.js";
import { type Clock, dayEndMs, dayOf, dayStartMs, isDay, SLOT_MS, systemClock } from "../time/index.js";
import { parseOptions } from "./option-errors.js";
import { openStoreOr, readRulesInput } from "./shared.js";

const DEFAULT_CAPACITY_KWH = 9.5;
const MAX_DAYS = 400;

const day = z.string().refine(isDay, "must be a date written YYYY-MM-DD, e.g. 2026-11-01");
const optionsSchema = z.object({
  config: z.string().optional(),
  rules: z.string().optional(),
  from: day.optional(),
  to: day.optional(),
  capacity: z.coerce
    .number({ message: "must be a positive number of kWh" })
    .positive("must be a positive number of kWh")
    .optional(),
  inverter: z.array(z.string().min(1, "must be an inverter's serial")).optional(),
  json: z.boolean().optional(),
});
export type RulesSavingsOptions = z.input<typeof optionsSchema>;

/**
 * `energy2mqtt rules savings`: each day's cost from the store against the same house with no
 * battery and with the battery in eco only, and the months' sums. With --inverter, those inverters'
 * own (one's, or a plant's summed) from their own counters, as History shows them: no standing
 * charge and no eco-only figure (the rules' one battery is the house's).
 */
export async function runRulesSavingsCommand(
  input: RulesSavingsOptions,
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
  clock: Clock = systemClock,
): Promise<number> {
  const usage = (message: string): number => {
    err.write(`${message}\n`);
    return 2;
  };
  const options = parseOptions(optionsSchema, input, err);
  if (options === undefined) return 2;

  const read = readRulesInput(options);
  if ("problem" in read) return usage(read.problem);
  const { config, file, rules } = read;
  if (!rules.tariffs.import) return usage(`${file}: savings need an import tariff (tariffs.import)`);

  const now = clock.now();
  const timeZone = rulesTimeZone(rules, undefined);
  const today = dayOf(now, timeZone);
  const to = options.to ?? today;
  const from = options.from ?? `${to.slice(0, 8)}01`;
  if (from > to) return usage(`--from ${from} is after --to ${to}`);
  if ((dayStartMs(to, timeZone) - dayStartMs(from, timeZone)) / 86_400_000 >= MAX_DAYS)
    return usage(`--from to --to spans more than ${MAX_DAYS} days: ask for a shorter range`);
  if (!existsSync(config.store.path))
    return usage(`no store at ${config.store.path}: run the daemon (or \`energy2mqtt archive\`) to fill it first`);

  const capacityKwh = rules.battery.capacity_kwh ?? options.capacity ?? DEFAULT_CAPACITY_KWH;
  const capacitySource =
    rules.battery.capacity_kwh !== undefined ? "rules.yaml" : options.capacity !== undefined ? "--capacity" : "default";
  const { tariffs, notes } = await refreshedTariffs(rules, timeZone, now);
  // The Octopus API keeps past prices: ask it from the first day, so that those days are priced as published.
  const pastNotes: string[] = [];
  for (const [side, tariff] of Object.entries(tariffs))
    if (tariff instanceof OctopusTariff && !(await tariff.loadSince(dayStartMs(from, timeZone), now)))
      pastNotes.push(`${side} prices before yesterday could not be fetched: ${tariff.error ?? ""}`);
  const store = openStoreOr(config, err);
  if (typeof store === "number") return store;
  let savings: Savings;
  try {
    // Complete half-hours only, as the daemon's saved_month: the one under way is not metered yet.
    const end = Math.min(dayEndMs(to, timeZone), Math.floor(now / SLOT_MS) * SLOT_MS);
    const metered = readMeteredInverters(store.history, dayStartMs(from, timeZone), end);
    const unknown = (options.inverter ?? []).filter((serial) => !metered.inverters.has(serial));
    if (unknown.length > 0)
      return usage(`--inverter ${unknown.join(", ")}: no metered half-hours in the store over these days`);
    // Days the tariffs no longer hold (an Agile file or URL keeps only the last days) priced as the daemon stored them.
    const priced = withStoredPrices(tariffs, store.publishedPrices);
    savings = computeSavings(
      meteredGroup(metered, options.inverter),
      options.inverter ? withoutStandingCharge(priced) : priced,
      { from, to, timeZone, battery: savingsBattery(rules.battery, capacityKwh) },
    );
  } finally {
    store.close();
  }
  const currency = rules.tariffs.currency;
  if (options.inverter) return groupSavings(options.inverter, { from, to, timeZone, currency }, savings, options, out);
  if (options.json) {
    out.write(`${JSON.stringify({ from, to, timeZone, currency, capacityKwh, ...savings }, null, 2)}\n`);
    return 0;
  }
  out.write(
    `The house's savings ${from} to ${to} (${timeZone}), in ${currency}: the cost metered from every inverter's counters in the store against the same house with no battery and with the battery in eco only (${capacityKwh} kWh from ${capacitySource}, from each day's first SoC reading), priced with the rules' tariffs (and the published prices the daemon stored, for days they no longer hold)\n`,
  );
  for (const note of [...notes, ...pastNotes]) out.write(`${note}\n`);
  out.write(savingsTable(savings));
  return 0;
}

/** Some inverters' own savings: no eco-only figure, so none printed (null in JSON). */
function groupSavings(
  inverters: readonly string[],
  range: { from: string; to: string; timeZone: string; currency: string },
  savings: Savings,
  options: { json?: boolean | undefined },
  out: NodeJS.WritableStream,
): number {
  const months = savings.months.map((month) => ({ ...month, ecoOnly: null, savedVsEcoOnly: null }));
  if (options.json) {
    out.write(`${JSON.stringify({ ...range, inverters, days: savings.days, months }, null, 2)}\n`);
    return 0;
  }
  const { from, to, timeZone, currency } = range;
  out.write(
    `${inverters.length === 1 ? `Inverter ${inverters[0]}'s` : `Inverters ${inverters.join(" + ")}'s (summed)`} own savings ${from} to ${to} (${timeZone}), in ${currency}: the cost metered from ${inverters.length === 1 ? "its" : "their"} own counters in the store against the same with no battery, priced with the rules' tariffs, no standing charge (the house's); no eco-only figure (the rules' battery is the house's)\n`,
  );
  out.write(savingsTable({ days: savings.days, months }));
  return 0;
}

const HEAD = [
  "day",
  "half-hours",
  "SoC",
  "actual",
  "no battery",
  "eco only",
  "saved vs none",
  "saved vs eco",
  "prices",
];

/** How a day's or month's half-hours were priced: "published", "fallback 48", "none 12", "fallback 2, none 4". */
function pricesCell(estimated: number, unpriced: number): string {
  const parts = [...(estimated > 0 ? [`fallback ${estimated}`] : []), ...(unpriced > 0 ? [`none ${unpriced}`] : [])];
  return parts.length > 0 ? parts.join(", ") : "published";
}

function savingsTable(savings: {
  days: Savings["days"];
  months: readonly (Omit<Savings["months"][number], "ecoOnly" | "savedVsEcoOnly"> & {
    ecoOnly: number | null;
    savedVsEcoOnly: number | null;
  })[];
}): string {
  if (savings.days.length === 0) return "No metered half-hours in the store over these days.\n";
  const money = (value: number | null) => (value === null ? "-" : value.toFixed(2));
  const rows = savings.days.map((one) => [
    one.day,
    `${one.slots}/${one.daySlots}`,
    one.startSocPercent === null ? "-" : `${Math.round(one.startSocPercent)}%`,
    money(one.actual),
    money(one.noBattery),
    money(one.ecoOnly),
    money(one.savedVsNoBattery),
    money(one.savedVsEcoOnly),
    pricesCell(one.estimated, one.unpriced),
  ]);
  for (const month of savings.months) {
    const inMonth = savings.days.filter((one) => one.day.startsWith(month.month));
    rows.push([
      `${month.month} total`,
      month.days === 1 ? "1 day" : `${month.days} days`,
      "",
      money(month.actual),
      money(month.noBattery),
      money(month.ecoOnly),
      money(month.savedVsNoBattery),
      money(month.savedVsEcoOnly),
      pricesCell(
        inMonth.reduce((sum, one) => sum + one.estimated, 0),
        inMonth.reduce((sum, one) => sum + one.unpriced, 0),
      ),
    ]);
  }
  const widths = HEAD.map((head, i) => Math.max(head.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  const text = [line(HEAD), ...rows.map(line)];
  const notes = gapNotes(savings.days);
  return `${[...text, ...notes].join("\n")}\n`;
}

/** Why some days' figures cover less than the day. */
function gapNotes(days: readonly SavingsDay[]): string[] {
  const notes: string[] = [];
  const partial = days.filter((one) => one.slots < one.daySlots).map((one) => one.day);
  if (partial.length > 0)
    notes.push(`Half-hours missing from the store are left out of all three costs: ${partial.join(", ")}`);
  const estimated = days.filter((one) => one.estimated > 0).map((one) => `${one.day} (${one.estimated})`);
  if (estimated.length > 0)
    notes.push(`Half-hours priced with the tariff's fallback, not a published price: ${estimated.join(", ")}`);
  const unpriced = days.filter((one) => one.unpriced > 0).map((one) => `${one.day} (${one.unpriced})`);
  if (unpriced.length > 0)
    notes.push(
      `Half-hours without an import price, left out of all three costs (give the import tariff a fallback: to price them): ${unpriced.join(", ")}`,
    );
  const noSoc = days.filter((one) => one.startSocPercent === null).map((one) => one.day);
  if (noSoc.length > 0) notes.push(`No SoC reading, so no eco-only figure: ${noSoc.join(", ")}`);
  return notes;
}
