import { localDateTimeToMs } from "../../../time/index.js";
import { ok, paginate, topLevel } from "../envelope.js";
import { bodyObject, type Route } from "../route.js";
import { pageQuery } from "./account.js";
import { withInverter } from "./inverter-lookup.js";
import { queryObject, validate } from "./validation.js";

export const inverterDataRoutes: readonly Route[] = [
  {
    method: "GET",
    path: "/inverter/{inverter_serial_number}/data-points/{date}",
    scopes: ["api:inverter:data"],
    handle: (c) =>
      validate({ date: c.params.date }, { date: ["required", "ISO8601-date"] }) ??
      withInverter(c, (record) => paginate(record.model.dataPoints(c.params.date ?? ""), pageQuery(c), c.url)),
  },
  {
    method: "GET",
    path: "/inverter/{inverter_serial_number}/events",
    scopes: [],
    handle: (c) => {
      const query = { ...bodyObject(c.body), ...queryObject(c.query) };
      const problem = validate(query, {
        start: ["optional", "ISO8601-datetime"],
        end: ["optional", "ISO8601-datetime"],
        cleared: ["optional", "boolean"],
      });
      if (problem) return problem;
      const cleared = query.cleared === true || query.cleared === "1" || query.cleared === 1;
      return withInverter(c, (record) =>
        paginate(
          record.model.events({
            cleared,
            ...(typeof query.start === "string" ? { startMs: Date.parse(query.start) } : {}),
            ...(typeof query.end === "string" ? { endMs: Date.parse(query.end) } : {}),
          }),
          pageQuery(c),
          c.url,
        ),
      );
    },
  },
  {
    method: "GET",
    path: "/inverter/{inverter_serial_number}/system-data/latest",
    scopes: ["api:inverter:data"],
    handle: (c) => withInverter(c, (record) => ok(record.model.systemDataLatest())),
  },
  {
    method: "GET",
    path: "/inverter/{inverter_serial_number}/meter-data/latest",
    scopes: ["api:inverter:data"],
    handle: (c) => withInverter(c, (record) => ok(record.model.meterDataLatest())),
  },
  {
    method: "POST",
    path: "/inverter/{inverter_serial_number}/energy-flows",
    scopes: ["api:inverter:data"],
    handle: (c) => {
      const body = bodyObject(c.body);
      const problem = validate(body, {
        start_time: ["required", "date_format:Y-m-d H:i:s,Y-m-d"],
        end_time: ["required", "date_format:Y-m-d H:i:s,Y-m-d"],
        grouping: ["required", "integer", "between:0,4"],
        types: ["optional", "integer[]"],
        "types.*": ["integer", "between:0,6"],
      });
      if (problem) return problem;
      const start = String(body.start_time);
      const end = String(body.end_time);
      if (localDateTimeToMs(end, "UTC") <= localDateTimeToMs(start, "UTC")) {
        return {
          status: 422,
          body: {
            message: "The given data was invalid.",
            errors: { end_time: ["The end time must be a date after start time."] },
          },
        };
      }
      const types = Array.isArray(body.types) ? body.types.map(Number) : undefined;
      return withInverter(c, (record) => {
        const answer = topLevel({
          data: record.model.energyFlows({
            start,
            end,
            grouping: Number(body.grouping) as 0 | 1 | 2 | 3 | 4,
            ...(types && types.length > 0 ? { types } : {}),
          }),
        });
        // The reference: declared as plain text, but the body is JSON.
        return { ...answer, headers: { "content-type": "text/plain; charset=UTF-8" } };
      });
    },
  },
];
