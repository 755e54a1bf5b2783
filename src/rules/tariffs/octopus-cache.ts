import { fetchPages } from "./octopus.js";

interface Entry {
  readonly at: number;
  readonly bodies: readonly unknown[];
}

/**
 * The Octopus API's bodies by URL, so that tariffs naming the same product and region (import
 * and a one-off `rules plan`, say) share one request per refresh window. Only successful
 * fetches are kept.
 */
export class OctopusCache {
  private readonly entries = new Map<string, Entry>();
  private fetched = 0;

  /** The bodies of `url`: the cached ones when fetched less than `maxAgeMs` before `now`. */
  async pages(url: string, now: number, maxAgeMs: number, signal?: AbortSignal): Promise<readonly unknown[]> {
    const cached = this.entries.get(url);
    if (cached && now >= cached.at && now - cached.at < maxAgeMs) return cached.bodies;
    const bodies = await fetchPages(url, signal);
    this.fetched += 1;
    this.entries.set(url, { at: now, bodies });
    return bodies;
  }

  /** How many lists were fetched from the network (each may have several pages). */
  get fetches(): number {
    return this.fetched;
  }
}

/** The daemon's one cache. */
export const octopusCache = new OctopusCache();
