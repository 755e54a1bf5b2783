import { z } from "zod";
import { INVERTER_KINDS, KIND_PROFILES } from "./kinds.js";

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date as YYYY-MM-DD");

export const ACCOUNT_TYPES = ["end-user", "engineer", "company", "admin"] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

/** Every scope of the reference. */
export const ALL_SCOPES = [
  "api:account:read",
  "api:account:list",
  "api:inverter:list",
  "api:inverter:read",
  "api:inverter:data",
  "api:inverter:control",
  "api:inverter:control:profile:list",
  "api:inverter:control:profile:manage",
  "api:snapshot:read",
  "api:snapshot:write",
  "api:snapshot:delete",
  "api:ev-charger:control",
  "api:ev-charger:data",
  "api:notification:send",
  "api:site:list",
  "api:site:read",
  "api:smart-device:list",
  "api:smart-device:create",
  "api:smart-device:read",
  "api:smart-device:data",
  "api:sso:list",
] as const;
export type Scope = (typeof ALL_SCOPES)[number];

/** Read-only scopes: what a dashboard token holds. */
export const READ_SCOPES: readonly Scope[] = ALL_SCOPES.filter(
  (scope) => !/control|write|delete|create|send|manage/.test(scope),
);

const serial = z.string().regex(/^[A-Z0-9]{6,20}$/, "must be 6 to 20 upper-case letters and digits");

const inverterFields = z.strictObject({
  serial,
  /** Decides the defaults below and the hardware the listing shows (see kinds.ts). */
  kind: z.enum(INVERTER_KINDS).default("hybrid"),
  /** info.model; defaults by kind. */
  model: z.string().min(1).optional(),
  commission_date: date,
  /**
   * PV on the site. Defaults to 4.2, or 0 for kinds without a PV input (ac-coupled, all-in-one),
   * whose PV is on another inverter and seen through a generation meter.
   */
  pv_kwp: z.number().min(0).max(100).optional(),
  /** Usable capacity. */
  battery_kwh: z.number().min(0).max(200).default(9.5),
  /** Defaults by kind. */
  max_power_w: z.number().min(500).max(100_000).optional(),
  /** Defaults by kind: 3 for three-phase, else 1. */
  phases: z.union([z.literal(1), z.literal(3)]).optional(),
  annual_load_kwh: z.number().min(0).max(100_000).default(3800),
  faults_per_month: z.number().min(0).max(100).default(2),
  /** Inverter flags, e.g. is-controllable, full-power-discharge-in-eco-mode. */
  flags: z.array(z.string()).default(["is-controllable", "full-power-discharge-in-eco-mode"]),
  /**
   * Settings the installer left on the inverter, by setting id (`{"66": true, "64": "00:30"}`),
   * written over the factory values before anything is simulated, so the history obeys them too.
   */
  settings: z
    .record(z.string().regex(/^\d+$/, "a setting id"), z.union([z.boolean(), z.number(), z.string()]))
    .optional(),
});

const inverterSchema = inverterFields.transform((inverter) => {
  const profile = KIND_PROFILES[inverter.kind];
  return {
    ...inverter,
    model: inverter.model ?? profile.model,
    pv_kwp: inverter.pv_kwp ?? (profile.pvStrings ? 4.2 : 0),
    max_power_w: inverter.max_power_w ?? profile.maxPowerW,
    phases: inverter.phases ?? profile.phases,
  };
});

/** A firmware version as the real service sends it: an integer (904), or text. */
const firmware = z.union([z.number().int().min(0), z.string().min(1)]);

const deviceSchema = z.strictObject({
  serial,
  type: z.enum(["WIFI", "GPRS"]).default("WIFI"),
  /** The dongle's firmware; the real service sends an integer. */
  firmware_version: firmware.default(904),
  inverter: inverterSchema,
});

const chargerSchema = z.strictObject({
  uuid: z.string().min(8),
  serial: z.string().min(4),
  alias: z.string().default("EV charger"),
  commission_date: date,
  configuration_mode: z.enum(["A", "B", "C", "D", "E"]).default("C"),
  max_current_a: z.number().int().min(6).max(32).default(32),
  car_battery_kwh: z.number().min(5).max(200).default(60),
});

const emsSchema = z.strictObject({
  serial,
  /** info.model of the EMS's entry in the device listing. */
  model: z.string().min(1).default("Plant EMS"),
  commission_date: date,
  /** Child inverters of the plant (controlled through the EMS). */
  inverters: z.array(inverterSchema).min(1).max(16),
  meters: z.number().int().min(1).max(8).default(2),
  flags: z.array(z.string()).default(["is-controllable"]),
});

const gatewaySchema = z.strictObject({
  /** The gateway, listed as an inverter whose model is Gateway. */
  serial,
  model: z.string().min(1).default("Gateway"),
  commission_date: date,
  /** The gateway's own dongle, also shown as its `connections.datalog`. */
  dongle: z.strictObject({
    serial,
    type: z.enum(["WIFI", "GPRS"]).default("GPRS"),
    firmware_version: firmware.default(206),
  }),
  meters: z.number().int().min(0).max(8).default(2),
  flags: z.array(z.string()).default(["full-power-discharge-in-eco-mode", "is-controllable"]),
  /** The All-In-Ones behind it, each with a dongle of its own; controlled through the gateway. */
  devices: z.array(deviceSchema).min(1).max(8),
});

const smartDeviceSchema = z.strictObject({
  uuid: z.string().min(8),
  alias: z.string(),
  /** Typical running power in W. */
  power_w: z.number().min(0).max(20_000).default(1200),
  /** Left out: a graph colour, hardware id and local key. Empty: sent as `[]`, as PHP sends an empty map. */
  other_data: z.record(z.string(), z.string()).optional(),
});

const accountSchema = z.strictObject({
  id: z.number().int().positive(),
  username: z.string().min(3).max(64),
  type: z.enum(ACCOUNT_TYPES).default("end-user"),
  role: z.string().default("OWNER"),
  subscription: z.boolean().default(true),
  first_name: z.string().default("Alex"),
  surname: z.string().default("Example"),
  /** Usernames of the accounts this one looks after (engineers and companies). */
  children: z.array(z.string()).default([]),
  site: z
    .strictObject({ id: z.number().int().positive(), name: z.string(), type: z.string().default("SINGLE_PHASE") })
    .optional(),
  devices: z.array(deviceSchema).default([]),
  ems: z.array(emsSchema).default([]),
  gateways: z.array(gatewaySchema).default([]),
  ev_chargers: z.array(chargerSchema).default([]),
  smart_devices: z.array(smartDeviceSchema).default([]),
});

const actorSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9_-]+$/, "must be lower-case letters, digits, - or _"),
  account: z.string(),
  type: z.enum(["user", "service"]).default("user"),
  /** Left out: derived from the seed, so tokens are stable between runs. */
  token: z.string().min(8).optional(),
  scopes: z.union([z.literal("all"), z.literal("read"), z.array(z.enum(ALL_SCOPES))]).default("all"),
});

export const scenarioSchema = z.strictObject({
  name: z.string().default("custom"),
  timezone: z.string().default("Europe/London"),
  country: z.string().default("UNITED_KINGDOM"),
  latitude: z.number().min(-90).max(90).default(51.5),
  longitude: z.number().min(-180).max(180).default(-0.12),
  requests_per_minute: z.number().int().min(1).default(300),
  accounts: z.array(accountSchema).min(1),
  actors: z.array(actorSchema).min(1),
});

export type Scenario = z.infer<typeof scenarioSchema>;
export type ScenarioInput = z.input<typeof scenarioSchema>;
export type ScenarioAccount = Scenario["accounts"][number];
export type ScenarioInverter = z.infer<typeof inverterSchema>;
export type ScenarioCharger = z.infer<typeof chargerSchema>;
export type ScenarioEms = z.infer<typeof emsSchema>;
export type ScenarioGateway = z.infer<typeof gatewaySchema>;
export type ScenarioDevice = z.infer<typeof deviceSchema>;
