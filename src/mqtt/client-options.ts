import type { IClientOptions } from "mqtt";
import type { MqttTls } from "./tls.js";

export function tlsOptions(tls: MqttTls | undefined): Partial<IClientOptions> {
  if (!tls) return {};
  return {
    rejectUnauthorized: tls.rejectUnauthorized,
    ...(tls.ca ? { ca: tls.ca } : {}),
    ...(tls.cert ? { cert: tls.cert } : {}),
    ...(tls.key ? { key: tls.key } : {}),
  };
}

/** mqtt.js options for a one-off connection (`check`), the same TLS as the daemon's. */
export function probeOptions(options: {
  readonly username?: string;
  readonly password?: string;
  readonly tls?: MqttTls;
  readonly timeoutMs: number;
}): IClientOptions {
  return {
    clientId: `energy2mqtt_check_${Math.random().toString(16).slice(2, 10)}`,
    protocolVersion: 4,
    clean: true,
    reconnectPeriod: 0,
    connectTimeout: options.timeoutMs,
    ...(options.username ? { username: options.username } : {}),
    ...(options.password ? { password: options.password } : {}),
    ...tlsOptions(options.tls),
  };
}

/** A broker URL without its password, for logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return url;
  }
}
