import type { AddressInfo } from "node:net";
import { type RPCClient, RPCServer } from "ocpp-rpc";

/** One call a charge point made, as the test's central system received it. */
export interface Received {
  readonly identity: string;
  readonly action: string;
  readonly params: Record<string, unknown>;
}

/** The server's end of one connection (an RpcServerClient, which is an RPCClient). */
type ServerClient = RPCClient;

/**
 * A minimal OCPP 1.6J central system for tests, on 127.0.0.1: it checks the Basic auth password,
 * accepts every boot (heartbeat `interval` s), numbers transactions from 1 and records every call.
 */
export class TestCentralSystem {
  readonly received: Received[] = [];
  readonly clients = new Map<string, ServerClient>();
  connections = 0;
  private server: RPCServer | undefined;
  private nextTransaction = 1;

  constructor(
    private readonly passwords: Record<string, string>,
    private readonly interval = 300,
  ) {}

  /** Listens on `port` (0: a free one) and answers the port. */
  async listen(port = 0): Promise<number> {
    const server = new RPCServer({ protocols: ["ocpp1.6"], strictMode: true });
    server.auth((accept, reject, handshake) => {
      const expected = this.passwords[handshake.identity];
      if (expected === undefined || handshake.password?.toString("utf8") !== expected) reject(401, "Unauthorized");
      else accept({}, "ocpp1.6");
    });
    server.on("client", (client: ServerClient) => this.attach(client));
    const http = await server.listen(port, "127.0.0.1");
    this.server = server;
    return (http.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    await this.server?.close({ force: true });
    this.server = undefined;
    this.clients.clear();
  }

  calls(action: string): Received[] {
    return this.received.filter((r) => r.action === action);
  }

  statuses(): string[] {
    return this.calls("StatusNotification").map((r) => String(r.params.status));
  }

  async call(identity: string, action: string, params: unknown): Promise<unknown> {
    const client = this.clients.get(identity);
    if (!client) throw new Error(`${identity} is not connected`);
    return client.call(action, params);
  }

  private attach(client: ServerClient): void {
    const identity = client.identity ?? "";
    this.connections++;
    this.clients.set(identity, client);
    client.on("close", () => {
      if (this.clients.get(identity) === client) this.clients.delete(identity);
    });
    const record = (action: string, params: Record<string, unknown> | undefined) =>
      this.received.push({ identity, action, params: params ?? {} });
    const now = () => new Date(0).toISOString();
    client.handle("BootNotification", async ({ params }) => {
      record("BootNotification", params);
      return { status: "Accepted", interval: this.interval, currentTime: now() };
    });
    client.handle("Heartbeat", async ({ params }) => {
      record("Heartbeat", params);
      return { currentTime: now() };
    });
    client.handle("StatusNotification", async ({ params }) => {
      record("StatusNotification", params);
      return {};
    });
    client.handle("MeterValues", async ({ params }) => {
      record("MeterValues", params);
      return {};
    });
    client.handle("StartTransaction", async ({ params }) => {
      record("StartTransaction", params);
      return { transactionId: this.nextTransaction++, idTagInfo: { status: "Accepted" } };
    });
    client.handle("StopTransaction", async ({ params }) => {
      record("StopTransaction", params);
      return {};
    });
  }
}
