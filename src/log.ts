import { type Logger, pino } from "pino";

export type { Logger };

/** Paths pino blanks out wherever they appear in a log object: tokens, passwords, keys. */
export const REDACTED_PATHS = [
  "token",
  "password",
  "authorization",
  "apiKey",
  "*.token",
  "*.password",
  "*.authorization",
  "*.apiKey",
  "headers.authorization",
  "*.headers.authorization",
  "cloud.token",
  "mqtt.password",
];

/** Logs go to stderr so that commands like `api` keep stdout for their output. */
export function createLogger(
  level = "info",
  destination: pino.DestinationStream = pino.destination({ fd: 2 }),
): Logger {
  return pino(
    { level, redact: { paths: REDACTED_PATHS, censor: "[redacted]" }, base: { name: "energy2mqtt" } },
    destination,
  );
}
