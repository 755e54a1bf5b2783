import { createConnection, createServer, type Server, type Socket } from "node:net";
import { type Frame, FrameError, Framer, parseFrame } from "../../src/local/index.js";

/** One address on 127.0.0.1 that reaches whichever dongle it is pointed at, as a LAN address does. */
export interface DongleForward {
  /** The port a daemon is configured with (its `local:` entry). */
  readonly port: number;
  /** Where it leads now. */
  readonly target: number;
  /** Connections accepted so far. */
  readonly connections: number;
  /**
   * Every whole frame the client sent through it, decoded as it crossed (requests and heartbeats;
   * bytes that are no frame are left out): what a daemon actually asked of the dongle.
   */
  readonly sent: readonly Frame[];
  /**
   * Points the address at another dongle, as a DHCP lease that moved does: the connections open
   * now are reset (the new holder of the address knows none of them), new ones reach `port`.
   */
  forwardTo(port: number): void;
  /** The dongle gone: the connections open are reset and the port refuses new ones, until `reappear`. */
  vanish(): Promise<void>;
  /** Listens on the same port again. */
  reappear(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP forwarder in front of the simulator's dongles (test only): every connection to its port
 * is carried, byte for byte both ways, to the dongle port it points at when the connection opens.
 * What the client sends is also cut into frames and decoded (`sent`), without changing a byte.
 */
export async function startDongleForward(target: number): Promise<DongleForward> {
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  let to = target;
  let accepted = 0;
  const sent: Frame[] = [];
  const server: Server = createServer((client) => {
    accepted++;
    const framer = new Framer();
    const upstream = createConnection({ host: "127.0.0.1", port: to });
    const pair = { client, upstream };
    pairs.add(pair);
    const end = (): void => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    client.on("data", (chunk: Buffer) => {
      upstream.write(chunk);
      for (const event of framer.push(chunk)) {
        if (event.type !== "frame" || !event.crcOk) continue;
        try {
          sent.push(parseFrame(event.bytes));
        } catch (error) {
          if (!(error instanceof FrameError)) throw error;
        }
      }
    });
    upstream.on("data", (chunk: Buffer) => client.write(chunk));
    for (const socket of [client, upstream]) {
      socket.on("error", end);
      socket.on("close", end);
    }
  });
  const listen = (on: number): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(on, "127.0.0.1", () => resolve());
    });
  await listen(0);
  const address = server.address();
  const port = address !== null && typeof address === "object" ? address.port : 0;
  const resetAll = (): void => {
    for (const { client, upstream } of [...pairs]) {
      client.resetAndDestroy();
      upstream.destroy();
    }
    pairs.clear();
  };
  return {
    port,
    get target() {
      return to;
    },
    get connections() {
      return accepted;
    },
    sent,
    forwardTo(next) {
      to = next;
      resetAll();
    },
    vanish: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        resetAll();
      }),
    reappear: () => listen(port),
    close: () =>
      new Promise<void>((resolve) => {
        for (const { client, upstream } of pairs) {
          client.destroy();
          upstream.destroy();
        }
        pairs.clear();
        if (server.listening) server.close(() => resolve());
        else resolve();
      }),
  };
}
