import { z } from "zod";
import { wallText } from "../../local/index.js";
import { type Answer, invalidIssues, notFound, ok } from "../http/envelope.js";
import type { DeviceClock } from "./device-clock.js";
import type { LocalDongles } from "./dongles.js";

const clockChange = z.strictObject({
  /** Seconds the clock is ahead of the zone's wall time from now (negative: behind). */
  drift_s: z
    .number()
    .min(-366 * 86_400)
    .max(366 * 86_400)
    .optional(),
  /** Seconds it gains a day (negative: loses). */
  drift_s_per_day: z.number().min(-86_400).max(86_400).optional(),
  /** Whether it moves itself at the zone's summer-time changes (a real inverter does not). */
  follows_zone: z.boolean().optional(),
});

function describe(serial: string, clock: DeviceClock, nowMs: number) {
  const behaviour = clock.behaviour(nowMs);
  return {
    serial,
    shows: wallText(clock.wallMs(nowMs)),
    drift_s: behaviour.driftSeconds,
    drift_s_per_day: behaviour.driftSecondsPerDay,
    follows_zone: behaviour.followsZone,
  };
}

/**
 * `/__admin/clocks/<serial>`: an inverter's or EMS's own clock (docs/simulator.md). GET shows
 * it, POST changes how it behaves from now. Undefined when the path is not about clocks.
 */
export function handleClockAdmin(
  local: LocalDongles | undefined,
  nowMs: number,
  method: string,
  path: string,
  body: unknown,
): Answer | undefined {
  const match = /^\/clocks\/([^/]+)$/.exec(path);
  if (!match?.[1]) return undefined;
  if (!local) return notFound("no device clocks: start the simulator with --local-port (0 for free ports)");
  const serial = decodeURIComponent(match[1]);
  const clock = local.clockOf(serial);
  if (!clock) return notFound(`no inverter or EMS with the serial "${serial}" on a dongle`);
  if (method === "GET") return ok(describe(serial, clock, nowMs));
  if (method !== "POST") return notFound(`no admin action ${method} ${path}`);
  const parsed = clockChange.safeParse(body ?? {});
  if (!parsed.success) {
    return invalidIssues(parsed.error.issues);
  }
  const change = parsed.data;
  clock.change(nowMs, {
    ...(change.drift_s === undefined ? {} : { driftSeconds: change.drift_s }),
    ...(change.drift_s_per_day === undefined ? {} : { driftSecondsPerDay: change.drift_s_per_day }),
    ...(change.follows_zone === undefined ? {} : { followsZone: change.follows_zone }),
  });
  return ok(describe(serial, clock, nowMs));
}
