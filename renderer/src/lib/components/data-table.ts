/** One column of a DataTable or VirtualTable: a heading and how to read a cell's text from a row. */
export interface TableColumn<Row> {
  id: string;
  label: string;
  /** Plain text of the cell (the default cell rendering and what tests compare). */
  text: (row: Row) => string;
  /** When set, clicking the header asks to sort by this key. */
  sortKey?: string;
  /** Width as a CSS grid track (`12rem`, `1fr`); default `1fr`. */
  width?: string;
  align?: 'start' | 'end';
}

/** Which column orders the rows, and which way. */
export interface TableSort {
  key: string;
  direction: 'ASC' | 'DESC';
}

/** The `aria-sort` of a column header under `sort`. */
export function ariaSortOf(
  sortKey: string | undefined,
  sort: TableSort | null | undefined,
): 'ascending' | 'descending' | 'none' | undefined {
  if (!sortKey) return undefined;
  if (!sort || sort.key !== sortKey) return 'none';
  return sort.direction === 'ASC' ? 'ascending' : 'descending';
}

/** The sort after a click on a column: the same column flips direction, another column starts ascending. */
export function nextSort(sortKey: string, sort: TableSort | null | undefined): TableSort {
  if (sort && sort.key === sortKey)
    return { key: sortKey, direction: sort.direction === 'ASC' ? 'DESC' : 'ASC' };
  return { key: sortKey, direction: 'ASC' };
}

/**
 * The rows a fixed-height virtual list renders: the visible ones plus `overscan` on each side, clamped to the
 * list. Never more than `ceil(viewport / rowHeight) + 2 * overscan + 1` rows, whatever the row count.
 */
export function visibleRange(
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
  rowCount: number,
  overscan: number,
): { start: number; end: number } {
  if (rowCount <= 0 || rowHeight <= 0) return { start: 0, end: 0 };
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const visible = Math.ceil(Math.max(0, viewportHeight) / rowHeight) + 1;
  const start = Math.max(0, Math.min(rowCount - 1, first - overscan));
  const end = Math.min(rowCount, first + visible + overscan);
  return { start, end: Math.max(start, end) };
}
