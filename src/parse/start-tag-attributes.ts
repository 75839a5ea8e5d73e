// The attributes of the current start tag that the collector reads, in one reused object of fixed
// shape. htmlparser2 builds a fresh attributes object per tag when given an onopentag callback; taking
// the attributes one by one, already recognised by number (attribute-names.ts), and keeping only these
// is markedly faster.
// Values are as written (entity-decoded); a repeated attribute keeps its first value, as in browsers.
// Attributes read only for their presence (hidden, itemscope, async, defer, onclick, download, ping,
// referrerpolicy) hold ''. `structuredData` says whether the tag has one of the attributes that make
// structured data (itemscope, itemprop, typeof, property, vocab, prefix), so a tag without any costs
// the structured-data collector one test.
import { Attr } from './attribute-names.ts';

export class StartTagAttributes {
  // on every element
  id: string | undefined = undefined;
  style: string | undefined = undefined;
  hidden: string | undefined = undefined;
  itemscope: string | undefined = undefined;
  itemtype: string | undefined = undefined;
  typeof: string | undefined = undefined;
  // read on particular elements only
  action: string | undefined = undefined;
  alt: string | undefined = undefined;
  ariaLabel: string | undefined = undefined;
  as: string | undefined = undefined;
  async: string | undefined = undefined;
  charset: string | undefined = undefined;
  content: string | undefined = undefined;
  data: string | undefined = undefined;
  defer: string | undefined = undefined;
  height: string | undefined = undefined;
  href: string | undefined = undefined;
  hreflang: string | undefined = undefined;
  httpEquiv: string | undefined = undefined;
  lang: string | undefined = undefined;
  loading: string | undefined = undefined;
  media: string | undefined = undefined;
  method: string | undefined = undefined;
  name: string | undefined = undefined;
  onclick: string | undefined = undefined;
  poster: string | undefined = undefined;
  preload: string | undefined = undefined;
  property: string | undefined = undefined;
  rel: string | undefined = undefined;
  role: string | undefined = undefined;
  src: string | undefined = undefined;
  srcset: string | undefined = undefined;
  target: string | undefined = undefined;
  title: string | undefined = undefined;
  type: string | undefined = undefined;
  width: string | undefined = undefined;
  download: string | undefined = undefined;
  ping: string | undefined = undefined;
  referrerpolicy: string | undefined = undefined;
  // microdata and RDFa Lite
  itemprop: string | undefined = undefined;
  itemref: string | undefined = undefined;
  itemid: string | undefined = undefined;
  vocab: string | undefined = undefined;
  resource: string | undefined = undefined;
  prefix: string | undefined = undefined;
  datetime: string | undefined = undefined;
  value: string | undefined = undefined;
  /** itemscope, itemprop, typeof, property, vocab or prefix is set. */
  structuredData = false;
  /** Some attribute beyond the every-element ones is set, so `clear` must reset them all. */
  private specificSet = false;

  /** Attribute `id` (attribute-names.ts) has `value`; an attribute the collector does not read has id 0. */
  set(id: number, value: string): void {
    switch (id) {
      case Attr.Id:
        this.id ??= value;
        return;
      case Attr.Style:
        this.style ??= value;
        return;
      case Attr.Hidden:
        this.hidden ??= value;
        return;
      case Attr.Itemscope:
        this.itemscope ??= value;
        this.structuredData = true;
        return;
      case Attr.Itemtype:
        this.itemtype ??= value;
        return;
      case Attr.Typeof:
        this.typeof ??= value;
        this.structuredData = true;
        return;
    }
    this.setSpecific(id, value);
  }

  clear(): void {
    this.id = this.style = this.hidden = this.itemscope = this.itemtype = this.typeof = undefined;
    this.structuredData = false;
    if (!this.specificSet) return;
    this.specificSet = false;
    this.action = this.alt = this.ariaLabel = this.as = this.async = this.charset = this.content = undefined;
    this.data = this.defer = this.height = this.href = this.hreflang = this.httpEquiv = this.lang = undefined;
    this.loading = this.media = this.method = this.name = this.onclick = this.poster = this.preload = undefined;
    this.property = this.rel = this.role = this.src = this.srcset = this.target = this.title = undefined;
    this.type = this.width = this.download = this.ping = this.referrerpolicy = undefined;
    this.itemprop = this.itemref = this.itemid = this.vocab = this.resource = this.prefix = this.datetime = this.value = undefined;
  }

  private setSpecific(id: number, value: string): void {
    switch (id) {
      case Attr.Href:
        this.href ??= value;
        break;
      case Attr.Src:
        this.src ??= value;
        break;
      case Attr.Alt:
        this.alt ??= value;
        break;
      case Attr.Rel:
        this.rel ??= value;
        break;
      case Attr.Type:
        this.type ??= value;
        break;
      case Attr.Title:
        this.title ??= value;
        break;
      case Attr.Role:
        this.role ??= value;
        break;
      case Attr.Name:
        this.name ??= value;
        break;
      case Attr.Content:
        this.content ??= value;
        break;
      case Attr.Property:
        this.property ??= value;
        this.structuredData = true;
        break;
      case Attr.Width:
        this.width ??= value;
        break;
      case Attr.Height:
        this.height ??= value;
        break;
      case Attr.Srcset:
        this.srcset ??= value;
        break;
      case Attr.Loading:
        this.loading ??= value;
        break;
      case Attr.Target:
        this.target ??= value;
        break;
      case Attr.AriaLabel:
        this.ariaLabel ??= value;
        break;
      case Attr.Onclick:
        this.onclick ??= value;
        break;
      case Attr.Lang:
        this.lang ??= value;
        break;
      case Attr.Charset:
        this.charset ??= value;
        break;
      case Attr.HttpEquiv:
        this.httpEquiv ??= value;
        break;
      case Attr.Hreflang:
        this.hreflang ??= value;
        break;
      case Attr.Media:
        this.media ??= value;
        break;
      case Attr.As:
        this.as ??= value;
        break;
      case Attr.Async:
        this.async ??= value;
        break;
      case Attr.Defer:
        this.defer ??= value;
        break;
      case Attr.Poster:
        this.poster ??= value;
        break;
      case Attr.Preload:
        this.preload ??= value;
        break;
      case Attr.Data:
        this.data ??= value;
        break;
      case Attr.Action:
        this.action ??= value;
        break;
      case Attr.Method:
        this.method ??= value;
        break;
      case Attr.Download:
        this.download ??= value;
        break;
      case Attr.Ping:
        this.ping ??= value;
        break;
      case Attr.Referrerpolicy:
        this.referrerpolicy ??= value;
        break;
      case Attr.Itemprop:
        this.itemprop ??= value;
        this.structuredData = true;
        break;
      case Attr.Itemref:
        this.itemref ??= value;
        break;
      case Attr.Itemid:
        this.itemid ??= value;
        break;
      case Attr.Vocab:
        this.vocab ??= value;
        this.structuredData = true;
        break;
      case Attr.Resource:
        this.resource ??= value;
        break;
      case Attr.Prefix:
        this.prefix ??= value;
        this.structuredData = true;
        break;
      case Attr.Datetime:
        this.datetime ??= value;
        break;
      case Attr.Value:
        this.value ??= value;
        break;
      default:
        return;
    }
    this.specificSet = true;
  }
}
