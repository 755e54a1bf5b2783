import { createConnection, type Socket } from "node:net";

/**
 * A TCP connection that is given up when it is not up within `timeoutMs`: an address where no
 * host lives never refuses, it only stays silent. Once up, the connection has no idle timeout.
 */
export function connectWithin(timeoutMs: number): (port: number, host: string) => Socket {
  return (port, host) => {
    const socket = createConnection({ port, host, timeout: timeoutMs });
    socket.once("connect", () => socket.setTimeout(0));
    socket.once("timeout", () => socket.destroy());
    return socket;
  };
}

/** Whether something accepts a TCP connection at host:port within `timeoutMs`; the connection is closed at once. */
export function acceptsConnection(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connectWithin(timeoutMs)(port, host);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("close", () => resolve(false));
  });
}
