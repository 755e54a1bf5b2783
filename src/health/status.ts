import { dirname, join } from "node:path";
import { z } from "zod";

/** What the daemon writes to its health file, and `energy2mqtt health` reads back. */
export const healthStatusSchema = z.object({
  /** When the daemon last wrote the file (ISO 8601). */
  at: z.iso.datetime(),
  pid: z.number().int(),
  mqtt: z.object({
    connected: z.boolean(),
    /** When `connected` last changed (or the daemon started). */
    since: z.iso.datetime(),
  }),
  cloud: z.object({
    /** The last cloud request that got a 2xx answer, or null when none has yet. */
    last_success: z.iso.datetime().nullable(),
    /** While the cloud refuses the daemon (401/403): why, and the likelier cause. */
    refused: z.string().nullable().default(null),
  }),
  /** Each device's freshness: stale once its values are older than twice its poll interval. */
  devices: z
    .array(
      z.object({
        device: z.string(),
        name: z.string(),
        /** Seconds since its values last came; null before the first. */
        age_seconds: z.number().nullable(),
        poll_seconds: z.number(),
        stale: z.boolean(),
      }),
    )
    .default([]),
});

export type HealthStatus = z.infer<typeof healthStatusSchema>;

export const HEALTH_FILE_ENV = "ENERGY2MQTT_HEALTH_FILE";

/** ENERGY2MQTT_HEALTH_FILE, else health.json next to the store; undefined for an in-memory store. */
export function healthFilePath(storePath: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const fromEnv = env[HEALTH_FILE_ENV];
  if (fromEnv) return fromEnv;
  if (storePath === ":memory:") return undefined;
  return join(dirname(storePath), "health.json");
}
