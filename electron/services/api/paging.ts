import type { Page } from '../../shared/api';

/** Longest walk through pages before the helpers stop, whatever the server says (a guard, not a limit). */
export const MAX_PAGES = 10_000;

/**
 * Walks a paginated list from page 0 until the server says there is no next page. `fetchPage` gets the page
 * number; gateway lists and enhanced events both fit.
 */
export async function* iteratePages<Item>(
  fetchPage: (page: number) => Promise<Page<Item>>,
  options: { signal?: AbortSignal } = {},
): AsyncGenerator<Page<Item>> {
  for (let page = 0; page < MAX_PAGES; page++) {
    options.signal?.throwIfAborted();
    const result = await fetchPage(page);
    yield result;
    if (!result.hasNext || result.data.length === 0) return;
  }
}

/** Every item of a paginated list, in server order. */
export async function collectPages<Item>(
  fetchPage: (page: number) => Promise<Page<Item>>,
  options: { signal?: AbortSignal } = {},
): Promise<Item[]> {
  const items: Item[] = [];
  for await (const page of iteratePages(fetchPage, options)) items.push(...page.data);
  return items;
}

// The window loader is pure (no Node): it lives in shared so the renderer pages through telemetry with it too.
export {
  loadPerformanceWindow,
  type PerformanceProgress,
  type PerformanceWindow,
} from '../../shared/api/performance-window';
