import { timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:net";
import { Aedes } from "aedes";

export interface EmbeddedBroker {
  readonly url: string;
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

export interface EmbeddedBrokerOptions {
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port?: number;
  /** When the port is taken, try the next ones, up to this many in all. */
  readonly portAttempts?: number;
  /** When given, clients must connect with these (mqtt.username and mqtt.password); else anyone may. */
  readonly credentials?: { readonly username: string; readonly password: string };
}

/** CONNACK 4, "bad user name or password". */
const BAD_USERNAME_OR_PASSWORD = 4;

/** An in-process MQTT 3.1.1 broker (aedes), used when no broker is configured. */
export async function startEmbeddedBroker(options: EmbeddedBrokerOptions = {}): Promise<EmbeddedBroker> {
  const host = options.host ?? "127.0.0.1";
  const firstPort = options.port ?? 1883;
  const attempts = firstPort === 0 ? 1 : (options.portAttempts ?? 1);
  const { credentials } = options;
  const aedes = await Aedes.createBroker(
    credentials
      ? {
          authenticate: (_client, username, password, done) => {
            if (username === credentials.username && sameSecret(password, credentials.password)) {
              done(null, true);
              return;
            }
            done(Object.assign(new Error("Bad username or password"), { returnCode: BAD_USERNAME_OR_PASSWORD }), false);
          },
        }
      : {},
  );
  const server = createServer(aedes.handle);
  let lastError: unknown;
  for (let i = 0; i < attempts; i++) {
    try {
      const port = await listen(server, host, firstPort + i);
      return {
        url: `mqtt://${host}:${port}`,
        host,
        port,
        close: () => closeBroker(server, aedes),
      };
    } catch (error) {
      lastError = error;
      if ((error as { code?: unknown }).code !== "EADDRINUSE") break;
    }
  }
  await new Promise<void>((resolve) => aedes.close(() => resolve()));
  throw lastError;
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => {
      server.off("listening", onListening);
      reject(error);
    };
    const onListening = (): void => {
      server.off("error", onError);
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : port);
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
}

async function closeBroker(server: Server, aedes: Aedes): Promise<void> {
  await new Promise<void>((resolve) => aedes.close(() => resolve()));
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Compares in constant time, so that the answer's timing says nothing of the password. */
function sameSecret(given: Readonly<Buffer> | undefined, expected: string): boolean {
  const wanted = Buffer.from(expected);
  const got = given ? Buffer.from(given) : Buffer.alloc(0);
  return got.length === wanted.length && timingSafeEqual(got, wanted);
}
