import { z } from "zod";
import { type Answer, invalidIssues, notFound, ok } from "../http/envelope.js";
import type { EvcLinks } from "./links.js";
import type { EvcModbusServer } from "./modbus-server.js";
import type { OcppChargePoint } from "./ocpp-charge-point.js";
import type { LocalCharger } from "./types.js";

/**
 * `/__admin/ocpp` and `/__admin/ev-chargers/...`: the EV chargers' car and local links
 * (docs/simulator.md). Undefined when the path is about something else.
 */

const car = z.strictObject({
  plugged: z.boolean(),
  /** The car's state of charge as it is plugged in; left out, 15 % less than it left with. */
  soc_percent: z.number().min(0).max(100).optional(),
});
const link = z.strictObject({ connected: z.boolean() });
const modbusFaults = z.strictObject({
  /** A written current limit goes back after this many simulated seconds; null: it holds. */
  revert_after_s: z.number().min(0).max(86_400).nullable(),
});

function describePoint(point: OcppChargePoint) {
  return { id: point.id, uuid: point.uuid, connected: point.connected, sent: point.sent.length };
}

function describeModbus(server: EvcModbusServer) {
  return {
    uuid: server.uuid,
    port: server.port,
    faults: { revert_after_s: server.faults.revertAfterS },
    writes: server.writes.map((w) => ({
      at: new Date(w.at).toISOString(),
      function_code: w.functionCode,
      address: w.address,
      values: w.values,
      outcome: w.outcome,
    })),
  };
}

function parse<S extends z.ZodType>(
  schema: S,
  body: unknown,
): { ok: true; value: z.output<S> } | { ok: false; answer: Answer } {
  const result = schema.safeParse(body ?? {});
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, answer: invalidIssues(result.error.issues) };
}

export function handleEvcAdmin(
  charger: (uuid: string) => LocalCharger | undefined,
  now: () => number,
  links: EvcLinks | undefined,
  method: string,
  path: string,
  body: unknown,
): Answer | undefined {
  if (path === "/ocpp" || path.startsWith("/ocpp/")) {
    if (!links || links.chargePoints.length === 0)
      return notFound("no OCPP charge points: start the simulator with ocpp");
    if (method === "GET" && path === "/ocpp") return ok(links.chargePoints.map(describePoint));
    const id = /^\/ocpp\/([^/]+)$/.exec(path)?.[1];
    const point = id === undefined ? undefined : links.chargePoint(decodeURIComponent(id));
    if (!point) return notFound(`no charge point at ${path}`);
    if (method === "GET") return ok(describePoint(point));
    if (method !== "POST") return notFound(`no admin action ${method} ${path}`);
    const parsed = parse(link, body);
    if (!parsed.ok) return parsed.answer;
    if (parsed.value.connected) point.reconnect();
    else void point.disconnect().catch(() => undefined);
    return ok({ id: point.id, connected: parsed.value.connected });
  }
  if (path === "/ev-chargers/modbus") {
    if (method !== "GET") return notFound(`no admin action ${method} ${path}`);
    return ok((links?.modbus ?? []).map(describeModbus));
  }
  const match = /^\/ev-chargers\/([^/]+)\/(car|modbus)$/.exec(path);
  if (!match?.[1] || !match[2]) return undefined;
  const uuid = decodeURIComponent(match[1]);
  if (match[2] === "car") {
    const local = charger(uuid);
    if (!local) return notFound(`no EV charger "${uuid}"`);
    if (method !== "POST") return notFound(`no admin action ${method} ${path}`);
    const parsed = parse(car, body);
    if (!parsed.ok) return parsed.answer;
    local.advanceTo(now());
    local.plug(parsed.value.plugged, parsed.value.soc_percent);
    return ok({ uuid, plugged: local.carPlugged(), status: local.status(), soc_percent: local.reading().socPercent });
  }
  const server = links?.modbusOf(uuid);
  if (!server) return notFound(`no Modbus server for EV charger "${uuid}": start the simulator with evcModbusPort`);
  if (method === "GET") return ok(describeModbus(server));
  if (method !== "POST") return notFound(`no admin action ${method} ${path}`);
  const parsed = parse(modbusFaults, body);
  if (!parsed.ok) return parsed.answer;
  server.faults.revertAfterS = parsed.value.revert_after_s;
  return ok(describeModbus(server));
}
