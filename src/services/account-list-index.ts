// One account's report list held in memory: every list item as the API's JSON bytes, and each sort's
// order as typed arrays, so that a page of any filter (project, verdict) and sort (id, generated_at,
// url, result; either direction, ties by id in the same direction) is picked and joined without the
// database. Only search is left out: it matches url substrings, which the SQL path answers.
//
// Layout: items sit in (project, result_rank, url, id) order, so one verdict of one project sorted by
// url (the common dashboard filter) is a run of neighbouring items, and a project's items are one
// range. Everything else walks or sorts by an order's positions. Bytes live outside V8's heap and the
// arrays are typed, so a million items are a few dozen objects for the garbage collector.
import type { JoinedItems } from '../repositories/joined-items-json.ts';
import type { ReportSortBy } from '../repositories/report.repository.ts';
import type { IndexItemRow, KeyedOrder } from '../repositories/list-index.repository.ts';
import type { Verdict } from '../analysis/types.ts';

export interface IndexPageQuery {
  project?: string;
  result?: Verdict;
  sortBy: ReportSortBy;
  sort: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export interface IndexPage {
  items: JoinedItems;
  total: number;
}

const RANK: Record<Verdict, number> = { bad: 0, decent: 1, good: 2 };
const COMMA = 0x2c;
/** `{"id":` */
const ID_PREFIX_BYTES = 6;
/** A project's first item of each rank, then its end: [bad, decent, good, end). */
type ProjectRanges = Int32Array;

export interface SortOrder {
  /** item indexes in ascending (key, id) order */
  order: Int32Array;
  /** each item's place in `order` */
  position: Int32Array;
}

/**
 * An index as typed arrays and plain values: what a build thread makes and hands over (the arrays'
 * buffers are moved, not copied), and what AccountListIndex reads.
 */
export interface IndexParts {
  /** every item's JSON bytes and a comma, one after another */
  items: Uint8Array;
  /** item i's bytes (with its comma) are items[starts[i], starts[i + 1]) */
  starts: Uint32Array;
  ranks: Uint8Array;
  projectNames: string[];
  /** four per project, in projectNames' order: ProjectRanges */
  projectRanges: Int32Array;
  /** ascending (key, id) order of each sort, and each item's place in it */
  orders: Record<ReportSortBy, SortOrder>;
}

/** The array buffers of `parts`, to move them to another thread. */
export function transferables(parts: IndexParts): ArrayBuffer[] {
  const sorts = Object.values(parts.orders).flatMap(({ order, position }) => [order.buffer, position.buffer]);
  return [parts.items.buffer, parts.starts.buffer, parts.ranks.buffer, parts.projectRanges.buffer, ...sorts] as ArrayBuffer[];
}

export class AccountListIndex {
  readonly bytes: number;
  private readonly items: Buffer;
  private readonly starts: Uint32Array;
  private readonly ranks: Uint8Array;
  private readonly projects = new Map<string, ProjectRanges>();
  private readonly rankCounts = [0, 0, 0];
  private readonly orders: Record<ReportSortBy, SortOrder>;

  constructor(parts: IndexParts) {
    this.items = Buffer.from(parts.items.buffer, parts.items.byteOffset, parts.items.byteLength);
    this.starts = parts.starts;
    this.ranks = parts.ranks;
    this.orders = parts.orders;
    parts.projectNames.forEach((name, k) => this.projects.set(name, parts.projectRanges.subarray(4 * k, 4 * k + 4)));
    for (const rank of this.ranks) this.rankCounts[rank]++;
    const n = this.ranks.length;
    this.bytes = this.items.length + n * (4 + 1 + 4 * 2 * 4) + this.projects.size * 120;
  }

  page(query: IndexPageQuery): IndexPage {
    const picked = query.project === undefined ? this.walk(query) : this.fromProject(query, query.project);
    return { items: this.joined(picked.indexes), total: picked.total };
  }

  /** Without a project: walk the sort's whole order, keeping the verdict asked for. */
  private walk(query: IndexPageQuery): { indexes: number[]; total: number } {
    const { order } = this.orders[query.sortBy];
    const rank = query.result === undefined ? -1 : RANK[query.result];
    const total = rank < 0 ? order.length : this.rankCounts[rank];
    const indexes: number[] = [];
    let skip = query.offset;
    const n = order.length;
    for (let step = 0; step < n && indexes.length < query.limit; step++) {
      const item = order[query.sort === 'asc' ? step : n - 1 - step];
      if (rank >= 0 && this.ranks[item] !== rank) continue;
      if (skip > 0) skip--;
      else indexes.push(item);
    }
    return { indexes, total };
  }

  /** A project's range (one verdict's, when asked), in the sort's order. */
  private fromProject(query: IndexPageQuery, project: string): { indexes: number[]; total: number } {
    const ranges = this.projects.get(project);
    if (ranges === undefined) return { indexes: [], total: 0 };
    const rank = query.result === undefined ? -1 : RANK[query.result];
    const low = rank < 0 ? ranges[0] : ranges[rank];
    const high = rank < 0 ? ranges[3] : ranges[rank + 1];
    const total = high - low;
    const from = Math.min(total, query.offset);
    const to = Math.min(total, query.offset + query.limit);
    const inOrder = (i: number) => (query.sort === 'asc' ? i : total - 1 - i);
    const indexes: number[] = [];
    if (query.sortBy === 'url' && rank >= 0) {
      // Stored in this order already.
      for (let i = from; i < to; i++) indexes.push(low + inOrder(i));
      return { indexes, total };
    }
    const { position } = this.orders[query.sortBy];
    const range = new Int32Array(total);
    for (let i = 0; i < total; i++) range[i] = low + i;
    range.sort((a, b) => position[a] - position[b]);
    for (let i = from; i < to; i++) indexes.push(range[inOrder(i)]);
    return { indexes, total };
  }

  /**
   * The picked items as byte ranges of the index, copied once into the answer, or written from the
   * index as they are (http/send-json-text.ts). Each item is stored with a comma after it, so
   * neighbouring items (a project's verdict by url) are one range. Copying each 37 KB page into a
   * buffer of its own, then into the answer, cost two short-lived buffers outside V8's heap per
   * request, and at thousands a second their memory set off full garbage collections; views of each
   * item cost a typed array object per item.
   */
  private joined(indexes: readonly number[]): JoinedItems {
    if (indexes.length === 0) return { count: 0, json: '' };
    const ranges: number[] = [];
    let byteLength = -1; // the last item's comma is left out
    for (const i of indexes) {
      const start = this.starts[i];
      const end = this.starts[i + 1];
      byteLength += end - start;
      if (ranges.length > 0 && ranges[ranges.length - 1] === start) ranges[ranges.length - 1] = end;
      else ranges.push(start, end);
    }
    ranges[ranges.length - 1] -= 1;
    const items = this.items;
    return {
      count: indexes.length,
      json: {
        byteLength,
        partCount: ranges.length / 2,
        copyTo(target, at) {
          for (let k = 0; k < ranges.length; k += 2) at += items.copy(target, at, ranges[k], ranges[k + 1]);
        },
        parts() {
          const parts: Buffer[] = [];
          for (let k = 0; k < ranges.length; k += 2) parts.push(items.subarray(ranges[k], ranges[k + 1]));
          return parts;
        },
      },
    };
  }
}

/** Bytes an item takes in the index: `{"id":<id>,`, the summary's fields, and a comma after it. */
function itemLength(row: IndexItemRow): number {
  return ID_PREFIX_BYTES + String(row.id).length + Buffer.byteLength(row.summary_json) + 1;
}

/** What the items of `rows` take in the index, to refuse an account too big before packing it. */
export function itemsLength(rows: readonly IndexItemRow[]): number {
  let length = 0;
  for (const row of rows) length += itemLength(row);
  return length;
}

/**
 * An account's index from its items (in readIndexItems' order) and its ids in the database's url and
 * generated_at orders. Items are written once, into a buffer of their own (never a slice of Node's
 * shared pool, so it can be moved to another thread): the id's prefix, then the whole summary, whose
 * opening brace becomes the prefix's comma, then the comma that follows the item in a list (see
 * AccountListIndex.joined). No string per item is made.
 */
export function packIndexParts(
  rows: readonly IndexItemRow[],
  keyedIds: Record<KeyedOrder, readonly number[]>,
  length = itemsLength(rows),
): IndexParts {
  const n = rows.length;
  const items = Buffer.from(new ArrayBuffer(length));
  const starts = new Uint32Array(n + 1);
  const ranks = new Uint8Array(n);
  const ids = new Array<number>(n);
  const projects = new ProjectRangesBuilder();
  let at = 0;
  rows.forEach((row, index) => {
    at += items.write(`{"id":${row.id}`, at, 'latin1');
    const brace = at;
    at += items.write(row.summary_json, at);
    items[brace] = COMMA;
    items[at++] = COMMA;
    starts[index + 1] = at;
    ranks[index] = row.result_rank;
    ids[index] = row.id;
    projects.add(row.project, row.result_rank, index);
  });
  projects.close(n);
  const byIndex = new Map(ids.map((id, index) => [id, index]));
  const keyed = (key: KeyedOrder) => {
    const orderIds = keyedIds[key];
    if (orderIds.length !== n) throw new Error(`the ${key} order does not cover the items`);
    return Int32Array.from(orderIds, (id) => {
      const index = byIndex.get(id);
      if (index === undefined) throw new Error(`the ${key} order names report ${id}, which the items do not`);
      return index;
    });
  };
  return {
    items,
    starts,
    ranks,
    projectNames: projects.names,
    projectRanges: Int32Array.from(projects.ranges),
    orders: {
      id: withPositions(inKeyOrder(ids, byIndex, (id) => id)),
      result: withPositions(inKeyOrder(ids, byIndex, (id, index) => ranks[index] * RANK_STRIDE + id)),
      url: withPositions(keyed('url')),
      generated_at: withPositions(keyed('generated_at')),
    },
  };
}

/** Each project's ProjectRanges, from items that arrive by project, then rank. */
class ProjectRangesBuilder {
  readonly names: string[] = [];
  readonly ranges: number[] = [];
  /** the project whose items are arriving, and the highest rank seen in it */
  private current: { name: string; rank: number } | null = null;

  add(name: string, rank: number, index: number): void {
    if (this.current === null || this.current.name !== name) {
      this.close(index);
      if (this.names.includes(name)) throw new Error(`items of project ${name} arrived out of order`);
      this.current = { name, rank: 0 };
      this.names.push(name);
      this.ranges.push(index, index, index, index);
    }
    const base = this.ranges.length - 4;
    // Ranks with no items start where the next present one does.
    while (this.current.rank < rank) this.ranges[base + ++this.current.rank] = index;
    if (rank < this.current.rank) throw new Error(`items of project ${name} arrived out of rank order`);
  }

  /** Ends the last project's ranges at `end`. */
  close(end: number): void {
    if (this.current === null) return;
    const base = this.ranges.length - 4;
    while (this.current.rank < 3) this.ranges[base + ++this.current.rank] = end;
    this.current = null;
  }
}

/** Above any report id, so that rank * RANK_STRIDE + id orders by rank, then id. */
const RANK_STRIDE = 2 ** 40;

/**
 * Item indexes in ascending order of `key(id, index)`, a number unique per item (it holds the id):
 * sorted by the typed array's own numeric sort, several times faster than a comparator.
 */
function inKeyOrder(ids: readonly number[], byIndex: Map<number, number>, key: (id: number, index: number) => number): Int32Array {
  const keys = Float64Array.from(ids, (id, index) => {
    if (id >= RANK_STRIDE) throw new Error(`report id ${id} is beyond what the list index orders`);
    return key(id, index);
  }).sort();
  return Int32Array.from(keys, (value) => byIndex.get(value % RANK_STRIDE)!);
}

function withPositions(order: Int32Array): SortOrder {
  const position = new Int32Array(order.length);
  for (let i = 0; i < order.length; i++) position[order[i]] = i;
  return { order, position };
}
