import mqtt from "mqtt";
import { later, systemClock } from "../time/index.js";
import { probeOptions } from "./client-options.js";
import { refusal } from "./connection.js";
import { isTlsTrustError, type MqttTls, tlsAdvice } from "./tls.js";

/** What one MQTT CONNECT, with the daemon's own credentials and TLS, came to. */
export type MqttProbe =
  | { readonly kind: "accepted" }
  | { readonly kind: "refused"; readonly code: number | undefined; readonly reason: string }
  | { readonly kind: "untrusted"; readonly advice: string }
  | { readonly kind: "unreachable"; readonly problem: string }
  | { readonly kind: "no-answer"; readonly timeoutMs: number };

export interface ProbeOptions {
  readonly username?: string;
  readonly password?: string;
  readonly tls?: MqttTls;
  readonly timeoutMs: number;
}

/** Connects once as `run` would, and disconnects: the broker's CONNACK, or why there was none. */
export function probeMqtt(url: string, options: ProbeOptions): Promise<MqttProbe> {
  const client = mqtt.connect(url, probeOptions(options));
  return new Promise<MqttProbe>((resolve) => {
    const finish = (result: MqttProbe): void => {
      cancelTimer();
      client.removeAllListeners();
      client.on("error", () => undefined);
      void client.endAsync(true).catch(() => undefined);
      resolve(result);
    };
    // A one-off check from the command line: the wall clock's time is the one that matters.
    const cancelTimer = later(systemClock, options.timeoutMs, () =>
      finish({ kind: "no-answer", timeoutMs: options.timeoutMs }),
    );
    client.once("connect", () => finish({ kind: "accepted" }));
    client.on("error", (error: Error & { code?: unknown }) => {
      if (isTlsTrustError(error)) return finish({ kind: "untrusted", advice: tlsAdvice(error) });
      if (refusal(error) || typeof error.code === "number") {
        return finish({
          kind: "refused",
          code: typeof error.code === "number" ? error.code : undefined,
          reason: error.message,
        });
      }
      finish({ kind: "unreachable", problem: typeof error.code === "string" ? error.code : error.message });
    });
  });
}
