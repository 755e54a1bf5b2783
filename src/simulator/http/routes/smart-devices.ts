import { createHash } from "node:crypto";
import { isoSeconds } from "../../../time/index.js";
import { hash01 } from "../../random.js";
import type { SmartDeviceRecord, World } from "../../world/world.js";
import { type Answer, notFound, ok, paginate } from "../envelope.js";
import { bodyObject, type RequestContext, type Route } from "../route.js";
import { pageQuery } from "./account.js";
import { validate } from "./validation.js";

const HALF_HOUR = 1_800_000;
const HISTORY_DAYS = 7;

/** PHP sends an empty map as `[]` (doc_get_smart_device.json: `other_data: []`). */
function deviceBody(record: SmartDeviceRecord) {
  const otherData = Object.keys(record.otherData).length > 0 ? record.otherData : [];
  return { uuid: record.uuid, alias: record.alias, other_data: otherData };
}

/** A week of half-hourly readings: the appliance runs for an hour or two on most days. */
function generatedPoints(world: World, record: SmartDeviceRecord, now: number) {
  const points: { time: string; power: number }[] = [];
  const end = Math.floor(now / HALF_HOUR) * HALF_HOUR;
  for (let t = Math.max(record.createdMs, end - HISTORY_DAYS * 86_400_000); t <= end; t += HALF_HOUR) {
    const day = Math.floor(t / 86_400_000);
    const startSlot = 36 + Math.floor(hash01(world.seed, record.uuid, day) * 8);
    const slot = Math.floor((t % 86_400_000) / HALF_HOUR);
    const running = slot >= startSlot && slot < startSlot + 3;
    const standby = 2 + Math.round(hash01(world.seed, record.uuid, t) * 2);
    points.push({
      time: isoSeconds(t),
      power: running ? Math.round(record.powerW * (0.8 + 0.4 * hash01(world.seed, t))) : standby,
    });
  }
  return points;
}

function withDevice(c: RequestContext, handle: (record: SmartDeviceRecord) => Answer): Answer {
  const record = c.world.smartDevices.get(c.params.smartDevice_uuid ?? "");
  if (!record || !c.world.canSee(c.actor, record.account)) return notFound("Smart device not found.");
  return handle(record);
}

export const smartDeviceRoutes: readonly Route[] = [
  {
    method: "GET",
    path: "/smart-device",
    scopes: ["api:smart-device:list"],
    handle: (c) => {
      const visible = c.world.visibleAccounts(c.actor);
      const devices = [...c.world.smartDevices.values()].filter((d) => visible.has(d.account.username)).map(deviceBody);
      return paginate(devices, pageQuery(c), c.url);
    },
  },
  {
    method: "POST",
    path: "/smart-device",
    scopes: ["api:smart-device:create"],
    handle: (c) => {
      const problem = validate(c.body, {
        serial_number: ["required", "string"],
        alias: ["optional", "string"],
        product_name: ["optional", "string"],
        manufacturer: ["optional", "string"],
        other_data: ["optional", "object"],
      });
      if (problem) return problem;
      const body = bodyObject(c.body);
      const serial = String(body.serial_number);
      const digest = createHash("sha256").update(`${c.world.seed}:${serial}`).digest("hex");
      const uuid = `${digest.slice(0, 8)}-${digest.slice(8, 12)}-4${digest.slice(13, 16)}-a${digest.slice(17, 20)}-${digest.slice(20, 32)}`;
      const existing = c.world.smartDevices.get(uuid);
      // The documented answers carry a list of devices (doc_post_smart_device.json).
      if (existing) return ok([deviceBody(existing)]);
      const record: SmartDeviceRecord = {
        uuid,
        account: c.actor.account,
        alias: typeof body.alias === "string" ? body.alias : serial,
        serialNumber: serial,
        otherData:
          typeof body.other_data === "object" && body.other_data !== null
            ? { ...(body.other_data as Record<string, unknown>) }
            : {},
        powerW: 0,
        posted: [],
        createdMs: c.now,
      };
      c.world.smartDevices.set(uuid, record);
      return ok([deviceBody(record)], 201);
    },
  },
  {
    method: "GET",
    path: "/smart-device/{smartDevice_uuid}",
    scopes: ["api:smart-device:read"],
    // A list holding the one device, as documented (doc_get_smart_device_id.json).
    handle: (c) => withDevice(c, (record) => ok([deviceBody(record)])),
  },
  {
    method: "GET",
    path: "/smart-device/{smartDevice_uuid}/data",
    scopes: ["api:smart-device:data"],
    handle: (c) =>
      withDevice(c, (record) => {
        const points = record.powerW > 0 ? generatedPoints(c.world, record, c.now) : [];
        const all = [...points, ...record.posted].sort((a, b) => b.time.localeCompare(a.time));
        return paginate(all, pageQuery(c), c.url);
      }),
  },
  {
    method: "POST",
    path: "/smart-device/{smartDevice_uuid}/data",
    scopes: ["api:smart-device:data"],
    handle: (c) =>
      validate(c.body, { time: ["required", "ISO8601-datetime"], power: ["required", "integer"] }) ??
      withDevice(c, (record) => {
        const body = bodyObject(c.body);
        const point = { time: isoSeconds(Date.parse(String(body.time))), power: Number(body.power) };
        record.posted.push(point);
        return ok([point], 201);
      }),
  },
];
