import type { Page, PageIterator } from "../../cloud/index.js";

/** Only the first page the iterator asks for: one request, whatever the number of pages. */
export async function firstPage<T>(pages: PageIterator<T>): Promise<Page<T>> {
  for await (const page of pages) return page;
  return { data: [] };
}
