// The attribute names the collector reads, recognised straight from the document's characters.
// A page has a few hundred thousand attributes, most of them (class, data-*, aria-*) never read.
// htmlparser2's Parser slices and lower-cases every name and builds every value; recognising the
// name in place lets PageParser skip the unread ones without making a single string.
import { NameTable } from './name-table.ts';

/** The attributes StartTagAttributes keeps, by number; 0 is every other attribute. */
export const Attr = {
  None: 0,
  Id: 1,
  Style: 2,
  Hidden: 3,
  Itemscope: 4,
  Itemtype: 5,
  Typeof: 6,
  Action: 7,
  Alt: 8,
  AriaLabel: 9,
  As: 10,
  Async: 11,
  Charset: 12,
  Content: 13,
  Data: 14,
  Defer: 15,
  Height: 16,
  Href: 17,
  Hreflang: 18,
  HttpEquiv: 19,
  Lang: 20,
  Loading: 21,
  Media: 22,
  Method: 23,
  Name: 24,
  Onclick: 25,
  Poster: 26,
  Preload: 27,
  Property: 28,
  Rel: 29,
  Role: 30,
  Src: 31,
  Srcset: 32,
  Target: 33,
  Title: 34,
  Type: 35,
  Width: 36,
  Download: 37,
  Ping: 38,
  Referrerpolicy: 39,
  // microdata and RDFa Lite (structured-collector.ts)
  Itemprop: 40,
  Itemref: 41,
  Itemid: 42,
  Vocab: 43,
  Resource: 44,
  Prefix: 45,
  Datetime: 46,
  Value: 47,
} as const;

/** Lower-case name as written in HTML -> its number. */
const NAMES: Record<string, number> = {
  id: Attr.Id,
  style: Attr.Style,
  hidden: Attr.Hidden,
  itemscope: Attr.Itemscope,
  itemtype: Attr.Itemtype,
  typeof: Attr.Typeof,
  action: Attr.Action,
  alt: Attr.Alt,
  'aria-label': Attr.AriaLabel,
  as: Attr.As,
  async: Attr.Async,
  charset: Attr.Charset,
  content: Attr.Content,
  data: Attr.Data,
  defer: Attr.Defer,
  height: Attr.Height,
  href: Attr.Href,
  hreflang: Attr.Hreflang,
  'http-equiv': Attr.HttpEquiv,
  lang: Attr.Lang,
  loading: Attr.Loading,
  media: Attr.Media,
  method: Attr.Method,
  name: Attr.Name,
  onclick: Attr.Onclick,
  poster: Attr.Poster,
  preload: Attr.Preload,
  property: Attr.Property,
  rel: Attr.Rel,
  role: Attr.Role,
  src: Attr.Src,
  srcset: Attr.Srcset,
  target: Attr.Target,
  title: Attr.Title,
  type: Attr.Type,
  width: Attr.Width,
  download: Attr.Download,
  ping: Attr.Ping,
  referrerpolicy: Attr.Referrerpolicy,
  itemprop: Attr.Itemprop,
  itemref: Attr.Itemref,
  itemid: Attr.Itemid,
  vocab: Attr.Vocab,
  resource: Attr.Resource,
  prefix: Attr.Prefix,
  datetime: Attr.Datetime,
  value: Attr.Value,
};
const TABLE = new NameTable(Object.entries(NAMES));

/**
 * Attributes whose value is never read, only whether they are there. (`style` is read: an inline
 * `display:none` hides an image from image_keywords.)
 */
const PRESENCE_ONLY = new Set<number>([
  Attr.Hidden,
  Attr.Itemscope,
  Attr.Async,
  Attr.Defer,
  Attr.Onclick,
  Attr.Download,
  Attr.Ping,
  Attr.Referrerpolicy,
]);
const VALUE_READ = Array.from({ length: Math.max(...Object.values(Attr)) + 1 }, (_, id) => !PRESENCE_ONLY.has(id));

/** Whether the collector reads the value of attribute `id` (else it is given as ''). */
export function isValueRead(id: number): boolean {
  return VALUE_READ[id];
}

/**
 * The number of the attribute named `source.slice(start, end)`, compared case-insensitively as
 * htmlparser2's `toLowerCase` would; Attr.None for attributes the collector does not read.
 */
export function attributeId(source: string, start: number, end: number): number {
  return TABLE.find(source, start, end) ?? Attr.None;
}
