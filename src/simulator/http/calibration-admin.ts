import { z } from "zod";
import { CALIBRATION_STAGES } from "../../vocabulary/index.js";
import type { World } from "../world/world.js";
import { type Answer, invalid, notFound, ok } from "./envelope.js";

const calibrationChange = z.strictObject({
  /** true starts a calibration at its first stage (or `stage`); false stops it. */
  running: z.boolean(),
  /** The stage to be in while running, as the inverter numbers them (HR 29). */
  stage: z.enum(CALIBRATION_STAGES).exclude(["off"]).optional(),
});

/**
 * `/__admin/inverters/{serial}/calibration` (docs/simulator.md): starts or stops an inverter's
 * battery calibration, seen in HR 29 over the LAN. Undefined when the path is not about it.
 */
export function handleCalibrationAdmin(
  world: World,
  now: () => number,
  method: string,
  path: string,
  body: unknown,
): Answer | undefined {
  const match = /^\/inverters\/([^/]+)\/calibration$/.exec(path);
  if (!match?.[1]) return undefined;
  const serial = decodeURIComponent(match[1]);
  const inverter = world.inverters.get(serial);
  if (!inverter) return notFound(`no inverter "${serial}" (an EMS or gateway runs no calibration of its own)`);
  const describe = () => ({
    serial: inverter.serial,
    stage: inverter.model.calibration.stage,
    started_at:
      inverter.model.calibration.startedAt === undefined
        ? null
        : new Date(inverter.model.calibration.startedAt).toISOString(),
  });
  if (method === "GET") return ok(describe());
  if (method !== "POST") return notFound(`no admin action ${method} ${path}`);
  const parsed = calibrationChange.safeParse(body ?? {});
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path.join(".") || "body";
      errors[key] = [...(errors[key] ?? []), issue.message];
    }
    return invalid(errors);
  }
  const { running, stage } = parsed.data;
  inverter.model.calibration.set(running ? (stage ?? "discharge") : "off", now());
  return ok(describe());
}
