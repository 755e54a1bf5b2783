import { z } from "zod";

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

const inverterSchema = z.strictObject({
  serial: z.string().regex(/^[A-Z0-9]{6,20}$/, "must be 6 to 20 upper-case letters and digits"),
  model: z.string().default("GIV-HY5.0"),
  commission_date: date,
  pv_kwp: z.number().min(0).max(100).default(4.2),
  battery_kwh: z.number().min(0).max(200).default(9.5),
  max_power_w: z.number().min(500).max(100_000).default(5000),
  annual_load_kwh: z.number().min(0).max(100_000).default(3800),
  faults_per_month: z.number().min(0).max(100).default(2),
  /** Inverter flags, e.g. is-controllable, full-power-discharge-in-eco-mode. */
  flags: z.array(z.string()).default(["is-controllable", "full-power-discharge-in-eco-mode"]),
});

const deviceSchema = z.strictObject({
  serial: z.string().regex(/^[A-Z0-9]{6,20}$/, "must be 6 to 20 upper-case letters and digits"),
  type: z.enum(["WIFI", "GPRS"]).default("WIFI"),
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
  serial: z.string().regex(/^[A-Z0-9]{6,20}$/),
  commission_date: date,
  /** Child inverters of the plant (controlled through the EMS). */
  inverters: z.array(inverterSchema).min(1).max(16),
  meters: z.number().int().min(1).max(8).default(2),
});

const smartDeviceSchema = z.strictObject({
  uuid: z.string().min(8),
  alias: z.string(),
  /** Typical running power in W. */
  power_w: z.number().min(0).max(20_000).default(1200),
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
