import { z } from "zod";
import { OCTOPUS_REGIONS } from "../rules/index.js";
import { isDay } from "../time/index.js";
import { BACKTEST_PERIODS, BACKTEST_POLICIES } from "./result.js";
import { parseTariffSpec, type TariffSpec } from "./tariff-spec.js";

/* `energy2mqtt backtest`'s options and their checks, shared by the CLI and the web page's POST /api/backtest. */

const day = z.string().refine(isDay, "must be a date written YYYY-MM-DD, e.g. 2026-11-01");
export const backtestOptionsSchema = z.object({
  config: z.string().optional(),
  rules: z.string().optional(),
  store: z.string().min(1, "must name the store file").optional(),
  from: day.optional(),
  to: day.optional(),
  tariff: z.array(z.string()).default([]),
  region: z
    .enum(OCTOPUS_REGIONS, { message: `must be an Octopus region letter: one of ${OCTOPUS_REGIONS.join(" ")}` })
    .optional(),
  batteryKwh: z.coerce
    .number({ message: "must be a positive number of kWh" })
    .positive("must be a positive number of kWh")
    .optional(),
  by: z.enum(BACKTEST_PERIODS, { message: `must be one of ${BACKTEST_PERIODS.join(", ")}` }).default("month"),
  policies: z
    .string()
    .transform((text) => text.split(",").map((name) => name.trim()))
    .pipe(
      z
        .array(z.enum(BACKTEST_POLICIES, { message: `must list policies among ${BACKTEST_POLICIES.join(", ")}` }))
        .min(1),
    )
    .optional(),
  octopusUrl: z.url({ message: "must be a URL starting with http:// or https://" }).optional(),
  json: z.boolean().optional(),
});
export type BacktestOptions = z.input<typeof backtestOptionsSchema>;

/** Option names as the user typed them, for the errors. */
const FLAGS: Record<string, string> = { batteryKwh: "battery-kwh", octopusUrl: "octopus-url" };

export type CheckedBacktestOptions = z.output<typeof backtestOptionsSchema>;

/**
 * The options as the command reads them, or what is wrong with them in the CLI's words (the web
 * page's POST /api/backtest is checked by this too, before it starts a run).
 */
export function checkBacktestOptions(
  input: unknown,
): { readonly options: CheckedBacktestOptions; readonly specs: TariffSpec[] } | { readonly problem: string } {
  const parsed = backtestOptionsSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? "option");
    return { problem: `--${FLAGS[name] ?? name} ${issue?.message ?? "is not valid"}` };
  }
  const options = parsed.data;
  const specs: TariffSpec[] = [];
  for (const text of options.tariff) {
    const spec = parseTariffSpec(text);
    if (typeof spec === "string") return { problem: `--tariff ${text}: ${spec}` };
    specs.push(spec);
  }
  if (specs.length > 0 && options.region === undefined)
    return {
      problem: "--tariff needs --region: the letter of your Octopus tariff code (E-1R-<product>-<region>), e.g. C",
    };
  if (options.from !== undefined && options.to !== undefined && options.from > options.to)
    return { problem: `--from ${options.from} is after --to ${options.to}` };
  return { options, specs };
}
