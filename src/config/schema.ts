import { z } from "zod";
import { duration } from "./duration.js";

/** Numbers and booleans may arrive as text from environment overrides. */
const integer = () =>
  z.preprocess((v) => (typeof v === "string" && /^-?\d+$/.test(v.trim()) ? Number(v) : v), z.number().int());
const boolean = () => z.preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean());

const url = (protocols: readonly string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL starting with ${protocols.map((p) => `${p}//`).join(" or ")}`,
  );

const topic = z
  .string()
  .min(1)
  .regex(/^[^#+\s]+$/, "must be an MQTT topic without spaces, # or +")
  .refine((value) => !value.startsWith("/") && !value.endsWith("/"), "must not start or end with /");

export const cloudConfig = z.strictObject({
  /** Left out: the built-in simulator runs in-process. */
  url: url(["http:", "https:"]).optional(),
  token: z.string().min(1).optional(),
  requests_per_minute: integer().pipe(z.number().min(1).max(10_000)).default(300),
  context: z.string().min(1).max(64).default("energy2mqtt"),
  page_size: integer().pipe(z.number().min(1).max(5000)).default(100),
  timeout: duration.default(30_000),
});

export const mqttConfig = z.strictObject({
  /** Left out: the embedded broker. */
  url: url(["mqtt:", "mqtts:", "ws:", "wss:"]).optional(),
  username: z.string().optional(),
  password: z.string().optional(),
  client_id: z.string().min(1).max(64).optional(),
  base_topic: topic.default("energy2mqtt"),
});

export const homeAssistantConfig = z.strictObject({
  discovery: boolean().default(true),
  discovery_prefix: topic.default("homeassistant"),
  status_topic: topic.default("homeassistant/status"),
});

export const pollConfig = z.strictObject({
  inverter: duration.default(60_000),
  meter: duration.default(300_000),
  ems: duration.default(60_000),
  ev_charger: duration.default(30_000),
  events: duration.default(300_000),
  smart_device: duration.default(300_000),
  /** How often the account's device lists are read again, to find new and removed devices. */
  inventory: duration.default(1_800_000),
});

export const storeConfig = z.strictObject({
  path: z.string().min(1).default("data/energy2mqtt.db"),
});

export const logConfig = z.strictObject({
  level: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

/** The whole configuration: one schema, every section optional with defaults. */
export const configSchema = z.strictObject({
  cloud: cloudConfig.default(cloudConfig.parse({})),
  mqtt: mqttConfig.default(mqttConfig.parse({})),
  homeassistant: homeAssistantConfig.default(homeAssistantConfig.parse({})),
  poll: pollConfig.default(pollConfig.parse({})),
  store: storeConfig.default(storeConfig.parse({})),
  rules: z.string().min(1).optional(),
  log: logConfig.default(logConfig.parse({})),
});

export type Config = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;
