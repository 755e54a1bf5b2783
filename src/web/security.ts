import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** The Supervisor's ingress proxy: behind ingress, the only address the page answers. */
export const INGRESS_PROXY = "172.30.32.2";

/** The header the page sends with every state-changing request; a cross-site form cannot send it. */
export const REQUEST_HEADER = "x-energy2mqtt-request";

export interface Guard {
  readonly token?: string | undefined;
  readonly ingress: boolean;
}

export type Verdict = { readonly ok: true } | { readonly ok: false; readonly status: number; readonly message: string };

const OK: Verdict = { ok: true };

/** Behind ingress only the Supervisor may ask; elsewhere the bound address already decides who can. */
export function checkPeer(guard: Guard, request: IncomingMessage): Verdict {
  if (!guard.ingress) return OK;
  const peer = (request.socket.remoteAddress ?? "").replace(/^::ffff:/, "");
  return peer === INGRESS_PROXY
    ? OK
    : { ok: false, status: 403, message: "behind ingress the page answers only Home Assistant's Supervisor" };
}

/** With a token configured, every API call carries it (Bearer, or ?token= for the event stream). */
export function checkToken(guard: Guard, request: IncomingMessage, url: URL): Verdict {
  if (guard.token === undefined) return OK;
  const header = request.headers.authorization;
  const given = header?.startsWith("Bearer ") ? header.slice(7) : (url.searchParams.get("token") ?? "");
  const expected = Buffer.from(guard.token);
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected)
    ? OK
    : {
        ok: false,
        status: 401,
        message: "this page needs web.token: open it as ?token=… or send Authorization: Bearer",
      };
}

/**
 * A state-changing request: POST, the page's own header (which a cross-site form or a simple
 * request cannot carry without a preflight this server never grants) and, when the browser says
 * where it comes from, this same host. Behind ingress Home Assistant's own origin fronts the page.
 */
export function checkSameOrigin(guard: Guard, request: IncomingMessage): Verdict {
  if (request.method !== "POST") return { ok: false, status: 405, message: "use POST" };
  if (request.headers[REQUEST_HEADER] !== "1")
    return { ok: false, status: 403, message: `cross-site request refused: the ${REQUEST_HEADER} header is missing` };
  const origin = request.headers.origin;
  if (origin === undefined || guard.ingress) return OK;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return { ok: false, status: 403, message: "cross-site request refused: unreadable Origin" };
  }
  return host === request.headers.host
    ? OK
    : { ok: false, status: 403, message: `cross-site request refused: Origin ${origin} is not this page` };
}

/** Host names that reach only this machine. */
const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?$/i;

/**
 * Without a token the page trusts that only this machine can reach it (it binds to loopback).
 * A site whose name a DNS rebinding points at 127.0.0.1 would reach it too, as a page of its own
 * origin: its requests name that site in Host, so a Host that is not a loopback name is refused.
 */
export function checkHost(guard: Guard, request: IncomingMessage): Verdict {
  if (guard.ingress || guard.token !== undefined) return OK;
  return LOOPBACK_HOST.test(request.headers.host ?? "")
    ? OK
    : {
        ok: false,
        status: 403,
        message: "without web.token the page answers only as localhost or 127.0.0.1 (set web.token to open it by name)",
      };
}
