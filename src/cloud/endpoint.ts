export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/** What the client knows of one endpoint, used for requests, retries and error messages. */
export interface EndpointInfo {
  /** The reference's name for it, e.g. "Get Account". */
  readonly name: string;
  readonly method: HttpMethod;
  /** Path template relative to the base URL, with `{param}` placeholders. */
  readonly path: string;
  /** Every scope the token must hold. */
  readonly scopes: readonly string[];
  readonly accountType?: "engineer+" | "company+";
  /** Safe to repeat: GETs and reads. Writes and commands are never retried blindly. */
  readonly idempotent: boolean;
  /** A limit of its own that does not count towards the global one. */
  readonly customLimit?: { readonly requests: number; readonly minutes: number };
}

export function defineEndpoint(info: Omit<EndpointInfo, "idempotent"> & { idempotent?: boolean }): EndpointInfo {
  return Object.freeze({ ...info, idempotent: info.idempotent ?? info.method === "GET" });
}

/** Fills `{param}` placeholders, encoding each value as one path segment. */
export function fillPath(template: string, params: Readonly<Record<string, string | number>> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === "") throw new TypeError(`missing path parameter "${name}" for ${template}`);
    return encodeURIComponent(String(value));
  });
}

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type QueryInput = Readonly<Record<string, QueryValue>>;

/**
 * Encodes a query as the reference asks: arrays as `name[]=value`, and booleans as 1/0
 * because the service's boolean rule rejects the strings "true" and "false".
 */
export function encodeQuery(query: QueryInput | undefined): string {
  if (!query) return "";
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    const name = encodeURIComponent(key);
    if (Array.isArray(value)) {
      for (const item of value) parts.push(`${name}[]=${encodeURIComponent(String(item))}`);
    } else if (typeof value === "boolean") {
      parts.push(`${name}=${value ? 1 : 0}`);
    } else {
      parts.push(`${name}=${encodeURIComponent(String(value))}`);
    }
  }
  return parts.length > 0 ? `?${parts.join("&")}` : "";
}
