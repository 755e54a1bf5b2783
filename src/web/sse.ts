import type { ServerResponse } from "node:http";
import type { StreamEvents } from "./api-types.js";

/** Clients of the live stream; each message goes to every one of them. */
export class EventStream {
  private readonly clients = new Set<ServerResponse>();

  add(response: ServerResponse, first: readonly { event: keyof StreamEvents; data: unknown }[]): void {
    response.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      connection: "keep-alive",
      // Ingress and other proxies would otherwise hold the stream back.
      "x-accel-buffering": "no",
    });
    response.write("retry: 2000\n\n");
    for (const message of first) response.write(frame(message.event, message.data));
    this.clients.add(response);
    response.on("close", () => this.clients.delete(response));
  }

  send<K extends keyof StreamEvents>(event: K, data: StreamEvents[K]): void {
    if (this.clients.size === 0) return;
    const text = frame(event, data);
    for (const client of this.clients) client.write(text);
  }

  get size(): number {
    return this.clients.size;
  }

  close(): void {
    for (const client of this.clients) client.end();
    this.clients.clear();
  }
}

function frame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
