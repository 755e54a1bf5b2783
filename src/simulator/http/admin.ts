import { z } from "zod";
import type { SimClock } from "../clock.js";
import { handleEvcAdmin } from "../ev/admin.js";
import type { EvcLinks } from "../ev/links.js";
import { handleDongleAdmin } from "../local/admin.js";
import { handleClockAdmin } from "../local/clock-admin.js";
import type { LocalDongles } from "../local/dongles.js";
import { houseLoadOf, setHouseLoad } from "../world/house-load.js";
import type { World } from "../world/world.js";
import { handleCalibrationAdmin } from "./calibration-admin.js";
import { type Answer, invalid, invalidIssues, notFound } from "./envelope.js";
import { handleFaultAdmin } from "./fault-admin.js";
import type { RateLimiter } from "./rate-limiter.js";

/** Fault injection outside /v1, for tests and demos. Documented in docs/simulator.md. */
export interface AdminState {
  readonly world: World;
  readonly clock: SimClock;
  readonly global: RateLimiter;
  /** Statuses the next requests answer with, in order (a 5xx or 503 burst). */
  errorBurst: number[];
  slow: { ms: number; remaining: number; path?: string } | undefined;
  /** Requests held by `slow` right now, so that a test can act while one is under way. */
  readonly held: { method: string; path: string }[];
  /** The dongles of `--local-port`, when open. */
  readonly local?: LocalDongles;
  /** The EV chargers' OCPP charge points and Modbus servers, when open. */
  readonly evc?: EvcLinks;
  /**
   * Off: every API call answers as for an account without the vendor's paid API subscription
   * (since May 2026: 401 or 403, the codes a wrong token gets).
   */
  apiSubscription: { active: boolean; status: 401 | 403 };
}

const deviceFault = z.strictObject({
  offline: z.boolean().optional(),
  locked: z.boolean().optional(),
  timeouts: z.number().int().min(0).max(1000).optional(),
  /** The next preset write applies only its first N setting writes, then answers -1 (half applied). */
  preset_stops_after: z.number().int().min(0).max(100).optional(),
  /** Load on top of the house's own, W, from now until changed (0 takes it off): an inverter's house only. */
  extra_load_w: z.number().min(0).max(100_000).optional(),
  /** The account's EV chargers draw through this inverter's house meter (off by default). */
  ev_chargers_load: z.boolean().optional(),
});
const errorBurst = z.strictObject({
  status: z.number().int().min(500).max(599),
  count: z.number().int().min(1).max(10_000),
});
const slow = z.strictObject({
  ms: z.number().int().min(0).max(120_000),
  count: z.number().int().min(1).max(10_000),
  /** Only requests whose path contains this are held, e.g. "/data-points" or "/settings/71/write". */
  path: z.string().min(1).optional(),
});
const rateLimit = z.strictObject({ requests_per_minute: z.number().int().min(1).max(1_000_000) });
const clockAdvance = z.strictObject({ advance_ms: z.number().int().min(0) });
const apiSubscription = z.strictObject({
  active: z.boolean(),
  /** What an account without it is answered; 401 by default. */
  status: z.union([z.literal(401), z.literal(403)]).default(401),
});

export function handleAdmin(state: AdminState, method: string, path: string, body: unknown): Answer {
  const dongles = handleDongleAdmin(state.local, method, path, body);
  if (dongles) return dongles;
  const clocks = handleClockAdmin(state.local, state.clock.now(), method, path, body);
  if (clocks) return clocks;
  const evc = handleEvcAdmin(
    (uuid) => state.world.chargers.get(uuid)?.model.local(),
    () => state.clock.now(),
    state.evc,
    method,
    path,
    body,
  );
  if (evc) return evc;
  const faults = handleFaultAdmin(state.world, state.clock, method, path, body);
  if (faults) return faults;
  const calibration = handleCalibrationAdmin(state.world, () => state.clock.now(), method, path, body);
  if (calibration) return calibration;
  const device = /^\/devices\/([^/]+)$/.exec(path);
  if (method === "POST" && device?.[1]) return applyDeviceFault(state, decodeURIComponent(device[1]), body);
  if (method === "POST" && path === "/errors") {
    return parsed(errorBurst, body, (b) => {
      state.errorBurst.push(...Array.from({ length: b.count }, () => b.status));
      return { pending: state.errorBurst.length };
    });
  }
  if (method === "POST" && path === "/slow") {
    return parsed(slow, body, (b) => {
      state.slow = { ms: b.ms, remaining: b.count, ...(b.path ? { path: b.path } : {}) };
      return state.slow;
    });
  }
  if (method === "GET" && path === "/slow") return { status: 200, body: { data: { ...state.slow, held: state.held } } };
  if (method === "POST" && path === "/rate-limit") {
    return parsed(rateLimit, body, (b) => {
      state.global.setLimit(b.requests_per_minute);
      state.global.reset();
      return { requests_per_minute: b.requests_per_minute };
    });
  }
  if (method === "POST" && path === "/clock") {
    return parsed(clockAdvance, body, (b) => {
      state.clock.advance(b.advance_ms);
      return { now: new Date(state.clock.now()).toISOString() };
    });
  }
  if (method === "POST" && path === "/subscription") {
    return parsed(apiSubscription, body, (b) => {
      state.apiSubscription = { active: b.active, status: b.status };
      return state.apiSubscription;
    });
  }
  if (method === "GET" && path === "/subscription") return { status: 200, body: { data: state.apiSubscription } };
  if (method === "GET" && path === "/notifications") return { status: 200, body: { data: state.world.notifications } };
  if (method === "GET" && path === "/health") {
    return { status: 200, body: { data: { ok: true, now: new Date(state.clock.now()).toISOString() } } };
  }
  return notFound(`no admin action ${method} ${path}`);
}

function applyDeviceFault(state: AdminState, id: string, body: unknown): Answer {
  const inverter = state.world.servedInverter(id);
  const charger = state.world.chargers.get(id);
  if (!inverter && !charger) return notFound(`no inverter, EMS, gateway or charger "${id}"`);
  const load = deviceFault.safeParse(body ?? {});
  const loading = load.success && (load.data.extra_load_w !== undefined || load.data.ev_chargers_load !== undefined);
  // An EMS's or a gateway's data is its inverters' sum: a load goes on a house, an inverter's.
  if (loading && !state.world.inverters.get(id))
    return invalid({ extra_load_w: [`"${id}" is no inverter: a load goes on an inverter's house`] });
  return parsed(deviceFault, body, (fault) => {
    const now = state.clock.now();
    inverter?.model.advanceTo(now);
    charger?.model.advanceTo(now);
    if (inverter) {
      if (fault.offline !== undefined) {
        inverter.control.conditions.offline = fault.offline;
        inverter.model.setOffline(fault.offline);
      }
      if (fault.locked !== undefined) inverter.control.conditions.locked = fault.locked;
      if (fault.timeouts !== undefined) inverter.control.injectTimeouts(fault.timeouts);
      if (fault.preset_stops_after !== undefined) inverter.control.stopNextPresetAfter(fault.preset_stops_after);
      if (fault.extra_load_w !== undefined || fault.ev_chargers_load !== undefined) {
        const before = houseLoadOf(state.world, id);
        setHouseLoad(state.world, id, {
          extraW: fault.extra_load_w ?? before.extraW,
          evChargers: fault.ev_chargers_load ?? before.evChargers,
        });
      }
    }
    if (charger) {
      if (fault.offline !== undefined) charger.model.setOffline(fault.offline);
      if (fault.timeouts !== undefined) charger.model.injectTimeouts(fault.timeouts);
    }
    return { device: id, ...fault };
  });
}

function parsed<S extends z.ZodType>(schema: S, body: unknown, apply: (value: z.output<S>) => unknown): Answer {
  const result = schema.safeParse(body ?? {});
  if (!result.success) {
    return invalidIssues(result.error.issues);
  }
  return { status: 200, body: { data: apply(result.data) } };
}
