/** Answers in the service's shapes: `data`, the pagination envelope, 422 and 404 bodies. */
export interface Answer {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export const ok = (data: unknown, status = 200): Answer => ({ status, body: { data } });
export const topLevel = (body: unknown, status = 200): Answer => ({ status, body });
export const notFound = (message = "Not Found"): Answer => ({ status: 404, body: { message } });
export const forbidden = (message: string): Answer => ({ status: 403, body: { message } });
export const invalid = (errors: Readonly<Record<string, readonly string[]>>): Answer => ({
  status: 422,
  body: { message: "The given data was invalid.", errors },
});

/** A body the admin API's schema refused, as the service's 422: each field's messages under its path. */
export function invalidIssues(
  issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[],
): Answer {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join(".") || "body";
    errors[key] = [...(errors[key] ?? []), issue.message];
  }
  return invalid(errors);
}

export const DEFAULT_PAGE_SIZE = 15;

export interface PageQuery {
  readonly page?: string;
  readonly pageSize?: string;
}

/** Laravel's length-aware paginator: `data`, `links` first/last/prev/next, `meta`. */
export function paginate<T>(items: readonly T[], query: PageQuery, url: URL): Answer {
  const pageSize = clampInt(query.pageSize, DEFAULT_PAGE_SIZE, 1, 10_000);
  const total = items.length;
  const lastPage = Math.max(1, Math.ceil(total / pageSize));
  const page = clampInt(query.page, 1, 1, Number.MAX_SAFE_INTEGER);
  const from = (page - 1) * pageSize;
  const slice = items.slice(from, from + pageSize);
  const path = `${url.origin}${url.pathname}`;
  const pageUrl = (n: number): string => {
    const params = new URLSearchParams(url.search);
    params.set("page", String(n));
    return `${path}?${decodeURIComponent(params.toString())}`;
  };
  return ok_page(slice, {
    links: {
      first: pageUrl(1),
      last: pageUrl(lastPage),
      prev: page > 1 ? pageUrl(page - 1) : null,
      next: page < lastPage ? pageUrl(page + 1) : null,
    },
    meta: {
      current_page: page,
      from: slice.length > 0 ? from + 1 : null,
      last_page: lastPage,
      path,
      per_page: pageSize,
      to: slice.length > 0 ? from + slice.length : null,
      total,
    },
  });
}

function ok_page(data: readonly unknown[], rest: { links: unknown; meta: unknown }): Answer {
  return { status: 200, body: { data, ...rest } };
}

function clampInt(text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined || !/^\d+$/.test(text)) return fallback;
  return Math.min(max, Math.max(min, Number(text)));
}
