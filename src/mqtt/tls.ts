import { readFileSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import type { Config } from "../config/index.js";

/** What mqtt.js takes for an mqtts:// or wss:// connection. */
export interface MqttTls {
  readonly ca?: Buffer;
  readonly cert?: Buffer;
  readonly key?: Buffer;
  readonly rejectUnauthorized: boolean;
}

/** A TLS file the configuration names that cannot be read. */
export class MqttTlsFileError extends Error {
  override readonly name = "MqttTlsFileError";
}

const FILES = ["ca", "cert", "key"] as const;

/**
 * Reads mqtt.ca, mqtt.cert and mqtt.key (relative to the configuration file, else to the working
 * folder); undefined when the configuration asks nothing of TLS.
 */
export function readMqttTls(mqtt: Config["mqtt"], configFile: string | undefined): MqttTls | undefined {
  if (FILES.every((name) => mqtt[name] === undefined) && mqtt.reject_unauthorized) return undefined;
  const base = configFile ? dirname(configFile) : process.cwd();
  const files: { ca?: Buffer; cert?: Buffer; key?: Buffer } = {};
  for (const name of FILES) {
    const given = mqtt[name];
    if (given === undefined) continue;
    const path = isAbsolute(given) ? given : resolve(base, given);
    try {
      files[name] = readFileSync(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new MqttTlsFileError(
        `mqtt.${name}: cannot read ${path} (${code}): give the path of the PEM file, absolute or relative to the configuration file`,
      );
    }
  }
  return { ...files, rejectUnauthorized: mqtt.reject_unauthorized };
}

/** Node's codes for a certificate the client does not trust or that names another host. */
export function isTlsTrustError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /CERT|SELF_SIGNED|ERR_TLS|ERR_SSL|UNABLE_TO_/.test(code);
}

/** What to do about a TLS failure, for logs, `check` and start-up. */
export function tlsAdvice(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const what = error instanceof Error ? error.message : String(error);
  return `the broker's certificate is not trusted (${what}${typeof code === "string" && !what.includes(code) ? `, ${code}` : ""}): set mqtt.ca to the CA file that signed it, or check that mqtt.url names the host the certificate is for`;
}
