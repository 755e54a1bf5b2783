import type { Page } from "./schemas/common.js";

/**
 * Lazily walks a paginated endpoint: `for await (const page of it)` for pages,
 * `it.items()` for items, `it.all()` to collect. It stops at `meta.last_page`,
 * or where `links.next` is null when the service leaves `meta` out.
 */
export class PageIterator<T> implements AsyncIterable<Page<T>> {
  constructor(
    private readonly fetchPage: (page: number) => Promise<Page<T>>,
    private readonly firstPage = 1,
  ) {}

  async *[Symbol.asyncIterator](): AsyncIterator<Page<T>> {
    let pageNumber = this.firstPage;
    for (;;) {
      const current = await this.fetchPage(pageNumber);
      yield current;
      if (!hasNext(current, pageNumber)) return;
      pageNumber++;
    }
  }

  async *items(): AsyncIterable<T> {
    for await (const current of this) yield* current.data;
  }

  async all(): Promise<T[]> {
    const out: T[] = [];
    for await (const item of this.items()) out.push(item);
    return out;
  }
}

function hasNext(current: Page<unknown>, requested: number): boolean {
  const meta = current.meta;
  if (meta?.last_page !== undefined && meta.last_page !== null) {
    return (meta.current_page ?? requested) < meta.last_page;
  }
  if (current.links) return typeof current.links.next === "string" && current.links.next.length > 0;
  return false;
}
