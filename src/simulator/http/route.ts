import type { Scope } from "../scenario/schema.js";
import type { Actor } from "../world/accounts.js";
import type { World } from "../world/world.js";
import type { Answer } from "./envelope.js";

export interface RequestContext {
  readonly world: World;
  readonly actor: Actor;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** The parsed JSON body, or {} when there was none. */
  readonly body: unknown;
  readonly url: URL;
  /** Simulated time of this request, epoch ms. */
  readonly now: number;
}

export interface Route {
  readonly method: "GET" | "POST" | "PUT" | "DELETE";
  /** Path below /v1 with `{param}` placeholders, as in the reference. */
  readonly path: string;
  readonly scopes: readonly Scope[];
  readonly accountType?: "engineer+" | "company+";
  /** A limit of its own, not counted towards the global one (notification send). */
  readonly customLimit?: { readonly requests: number; readonly minutes: number };
  readonly handle: (context: RequestContext) => Answer;
}

/** Query arrays arrive as `name[]=v` (or `name[0]=v`); plain `name=v` is taken as one item. */
export function queryArray(query: URLSearchParams, name: string): string[] {
  const out: string[] = [];
  for (const [key, value] of query) {
    if (key === name || key === `${name}[]` || new RegExp(`^${name}\\[\\d+\\]$`).test(key)) out.push(value);
  }
  return out;
}

export function bodyObject(body: unknown): Record<string, unknown> {
  return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
