import type { Route } from "./route.js";

interface CompiledRoute {
  readonly route: Route;
  readonly regex: RegExp;
  readonly names: readonly string[];
  readonly placeholders: number;
}

/** Matches method and path to a route; literal segments win over placeholders. */
export class RouteTable {
  private readonly compiled: CompiledRoute[];

  constructor(routes: readonly Route[]) {
    this.compiled = routes
      .map((route) => {
        const names: string[] = [];
        const pattern = route.path
          .split("/")
          .map((segment) => {
            const placeholder = /^\{(\w+)\}$/.exec(segment);
            if (!placeholder?.[1]) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
            names.push(placeholder[1]);
            return "([^/]+)";
          })
          .join("/");
        return { route, regex: new RegExp(`^${pattern}/?$`), names, placeholders: names.length };
      })
      .sort((a, b) => a.placeholders - b.placeholders);
  }

  match(method: string, path: string): { route: Route; params: Record<string, string> } | undefined {
    for (const candidate of this.compiled) {
      if (candidate.route.method !== method) continue;
      const found = candidate.regex.exec(path);
      if (!found) continue;
      const params: Record<string, string> = {};
      candidate.names.forEach((name, i) => {
        params[name] = decodeURIComponent(found[i + 1] ?? "");
      });
      return { route: candidate.route, params };
    }
    return undefined;
  }
}
