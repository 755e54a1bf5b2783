import { resolve } from "node:path";
import { z } from "zod";
import type { Config } from "../config/index.js";
import type { CarState } from "../rules-runtime/index.js";

/**
 * The battery and the car as the running daemon of this configuration plans from them (its web
 * API, GET api/plan, the Plan page's own answer), so that `rules plan` and the page start from
 * the same SoC and plan the same car.
 */
export interface DaemonBattery {
  readonly url: string;
  /** False: the daemon has no reading yet and assumes the SoC too. */
  readonly live: boolean;
  readonly socPercent: number;
  readonly capacityKwh: number;
  readonly capacitySource: string;
  /** Its inverter's battery calibrates: its rules hold until it ends. */
  readonly calibrating?: boolean;
  readonly timeZone: string;
  /** The car its optimise rules plan (plug state, car topics, kWh delivered); undefined when it plans none. */
  readonly car: CarState | undefined;
}

export type DaemonAnswer = { readonly found: DaemonBattery } | { readonly none: string } | { readonly other: string };

const healthAnswer = z.object({ store: z.object({ path: z.string() }) });
const planAnswer = z.object({
  plan: z
    .object({
      timeZone: z.string(),
      battery: z.object({
        socPercent: z.number().finite(),
        live: z.boolean(),
        capacityKwh: z.number().positive(),
        capacitySource: z.string(),
        // Absent from a daemon older than the calibration's hold, or while none runs.
        calibrating: z.boolean().optional(),
      }),
      // Null when its rules plan no car; absent from a daemon older than the car's state.
      car: z
        .object({
          plugged: z.boolean().nullable(),
          topics: z.record(z.string(), z.number().finite()),
          deliveredKwh: z.record(z.string(), z.number().finite().min(0)),
        })
        .nullable()
        .optional(),
    })
    .nullable(),
});

const TIMEOUT_MS = 2_000;

/** The page's address on this machine: a wildcard bind is reached on loopback. */
export function daemonUrl(web: Config["web"]): string {
  const host = web.host === "0.0.0.0" ? "127.0.0.1" : web.host === "::" ? "::1" : web.host;
  return `http://${host.includes(":") ? `[${host}]` : host}:${web.port}/`;
}

/**
 * Asks the daemon on the configured web port for the battery it plans from. A daemon that keeps
 * its store elsewhere runs another configuration: its battery is not taken (`other`).
 */
export async function daemonBattery(config: Config): Promise<DaemonAnswer> {
  const url = daemonUrl(config.web);
  if (!config.web.enabled) return { none: "the configuration turns the web page off (web.enabled: false)" };
  const headers = config.web.token ? { authorization: `Bearer ${config.web.token}` } : undefined;
  const get = async (path: string): Promise<unknown> => {
    const response = await fetch(new URL(path, url), {
      ...(headers ? { headers } : {}),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!response.ok) throw new HttpError(`HTTP ${response.status} from ${path}`);
    return response.json();
  };
  let health: z.infer<typeof healthAnswer>;
  try {
    health = healthAnswer.parse(await get("api/health"));
  } catch (error) {
    // Something answered but refused (ingress, a token) or is not energy2mqtt: not "none".
    if (error instanceof HttpError || error instanceof z.ZodError)
      return { other: `the page at ${url} gave no battery (${reasonOf(error)})` };
    return { none: `no daemon answered at ${url} (${reasonOf(error)})` };
  }
  if (resolve(health.store.path) !== resolve(config.store.path))
    return {
      other: `the daemon at ${url} keeps its store at ${health.store.path}, not this configuration's ${config.store.path}`,
    };
  try {
    const { plan } = planAnswer.parse(await get("api/plan"));
    if (!plan) return { other: `the daemon at ${url} has no rules loaded` };
    return {
      found: {
        url,
        ...plan.battery,
        calibrating: plan.battery.calibrating === true,
        timeZone: plan.timeZone,
        car: plan.car ?? undefined,
      },
    };
  } catch (error) {
    return { other: `the daemon at ${url} gave no plan (${reasonOf(error)})` };
  }
}

class HttpError extends Error {}

function reasonOf(error: unknown): string {
  if (error instanceof z.ZodError) return "not energy2mqtt's answer";
  const cause = (error as { cause?: { code?: string } }).cause?.code;
  return cause ?? (error as Error).message;
}
