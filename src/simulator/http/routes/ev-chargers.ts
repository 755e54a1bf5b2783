import type { ChargerRecord } from "../../world/world.js";
import { type Answer, invalid, notFound, ok, paginate } from "../envelope.js";
import { bodyObject, type RequestContext, type Route } from "../route.js";
import { pageQuery } from "./account.js";
import { queryObject, validate } from "./validation.js";

const DATE_OR_DATETIME = "date_format:Y-m-d,Y-m-d H:i:s,Y-m-d\\TH:i:s\\Z,Y-m-d\\TH:i:sP";

function withCharger(c: RequestContext, handle: (record: ChargerRecord) => Answer): Answer {
  const uuid = c.params.charger_uuid ?? "";
  const record = c.world.charger(uuid, c.actor, c.now);
  return record ? handle(record) : notFound(`EV charger ${uuid} not found.`);
}

/** Dates and datetimes as the service takes them: local `Y-m-d H:i:s` read as UTC, ISO 8601, or a date. */
function parseTime(text: string): number {
  return Date.parse(
    /^\d{4}-\d{2}-\d{2}$/.test(text)
      ? `${text}T00:00:00Z`
      : text.replace(" ", "T").replace(/(\d{2}:\d{2}:\d{2})$/, "$1Z"),
  );
}

export const evChargerRoutes: readonly Route[] = [
  {
    method: "GET",
    path: "/ev-charger",
    scopes: [],
    handle: (c) => {
      const visible = c.world.visibleAccounts(c.actor);
      const chargers = [...c.world.chargers.values()]
        .filter((record) => visible.has(record.account.username))
        .map((record) => {
          record.model.advanceTo(c.now);
          return record.model.info();
        });
      return paginate(chargers, pageQuery(c), c.url);
    },
  },
  {
    method: "GET",
    path: "/ev-charger/{charger_uuid}",
    scopes: [],
    handle: (c) => withCharger(c, (record) => ok(record.model.info())),
  },
  {
    method: "GET",
    path: "/ev-charger/{charger_uuid}/meter-data",
    scopes: ["api:ev-charger:data"],
    handle: (c) => {
      const query = queryObject(c.query);
      const problem = validate(query, {
        start_time: ["required", DATE_OR_DATETIME],
        end_time: ["required", DATE_OR_DATETIME],
        measurands: ["required", "array", "min:1"],
        "measurands.*": ["integer", "between:0,21"],
        meter_ids: ["required", "array", "min:1"],
        "meter_ids.*": ["integer"],
      });
      if (problem) return problem;
      const startMs = parseTime(String(query.start_time));
      const endMs = parseTime(String(query.end_time));
      if (!(startMs < c.now)) return invalid({ start_time: ["The start time must be a date before now."] });
      if (!(endMs > startMs)) return invalid({ end_time: ["The end time must be a date after start time."] });
      return withCharger(c, (record) =>
        paginate(
          record.model.meterData({
            startMs,
            endMs,
            measurands: (query.measurands as unknown[]).map(Number),
            meterIds: (query.meter_ids as unknown[]).map(Number),
          }),
          pageQuery(c),
          c.url,
        ),
      );
    },
  },
  {
    method: "GET",
    path: "/ev-charger/{charger_uuid}/commands",
    scopes: ["api:ev-charger:control"],
    handle: (c) => withCharger(c, (record) => ok(record.model.supportedCommands())),
  },
  {
    method: "GET",
    path: "/ev-charger/{charger_uuid}/commands/{command_id}",
    scopes: ["api:ev-charger:control"],
    handle: (c) =>
      withCharger(c, (record) => {
        const data = record.model.commandData(c.params.command_id ?? "");
        return data === undefined ? notFound(`Command ${c.params.command_id} not found.`) : ok(data);
      }),
  },
  {
    method: "POST",
    path: "/ev-charger/{charger_uuid}/commands/{command_id}",
    scopes: ["api:ev-charger:control"],
    handle: (c) =>
      withCharger(c, (record) => {
        const command = c.params.command_id ?? "";
        if (record.model.commandData(command) === undefined) return notFound(`Command ${command} not found.`);
        const answer = record.model.sendCommand(command, bodyObject(c.body), { userId: String(c.actor.account.id) });
        return answer.status === 422 ? { status: 422, body: answer.body } : ok(answer.body);
      }),
  },
  {
    method: "GET",
    path: "/ev-charger/{charger_uuid}/charging-sessions",
    scopes: ["api:ev-charger:data"],
    handle: (c) => {
      const query = { ...bodyObject(c.body), ...queryObject(c.query) };
      const problem = validate(query, {
        start_time: ["optional", DATE_OR_DATETIME],
        end_time: ["optional", DATE_OR_DATETIME],
      });
      if (problem) return problem;
      const startMs = typeof query.start_time === "string" ? parseTime(query.start_time) : undefined;
      const endMs = typeof query.end_time === "string" ? parseTime(query.end_time) : undefined;
      if (startMs !== undefined && endMs !== undefined && startMs > endMs) {
        return invalid({ start_time: ["The start time must be a date before or equal to end time."] });
      }
      return withCharger(c, (record) =>
        paginate(
          record.model.sessions({
            ...(startMs !== undefined ? { startMs } : {}),
            ...(endMs !== undefined ? { endMs } : {}),
          }),
          pageQuery(c),
          c.url,
        ),
      );
    },
  },
];
