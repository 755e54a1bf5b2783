/** Every URL is relative to the page's base (the ingress prefix when behind Home Assistant). */

const TOKEN_KEY = "energy2mqtt.token";

function token(): string | null {
  const fromUrl = new URLSearchParams(location.search).get("token");
  if (fromUrl) sessionStorage.setItem(TOKEN_KEY, fromUrl);
  return fromUrl ?? sessionStorage.getItem(TOKEN_KEY);
}

export function apiUrl(path: string, params: Record<string, string | number> = {}): string {
  const url = new URL(`api/${path}`, document.baseURI);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, String(value));
  return url.toString();
}

function headers(): Record<string, string> {
  const secret = token();
  return secret ? { authorization: `Bearer ${secret}` } : {};
}

export async function getJson<T>(path: string, params: Record<string, string | number> = {}): Promise<T> {
  const response = await fetch(apiUrl(path, params), { headers: headers() });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A command: POST with the page's own header, which cross-site requests cannot send. */
export async function postJson<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(apiUrl(path), {
    method: "POST",
    headers: { ...headers(), "content-type": "application/json", "x-energy2mqtt-request": "1" },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new Error(answer.error ?? `HTTP ${response.status}`);
  return answer;
}

/** The live stream (server-sent events); the token, if any, rides in the URL since EventSource has no headers. */
export function openStream(): EventSource {
  const secret = token();
  return new EventSource(apiUrl("events", secret ? { token: secret } : {}));
}

/** A link the browser follows itself (a download): the token, if any, rides in the URL. */
export function linkUrl(path: string): string {
  const secret = token();
  return apiUrl(path, secret ? { token: secret } : {});
}
