// The attributes of the current start tag that the collector reads, in one reused object of fixed
// shape. htmlparser2 builds a fresh attributes object per tag when given an onopentag callback; taking
// the attributes one by one through onattribute and keeping only these is markedly faster.
// Values are as written (entity-decoded); a repeated attribute keeps its first value, as in browsers.

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
  /** Some attribute beyond the every-element ones is set, so `clear` must reset them all. */
  private specificSet = false;

  set(name: string, value: string): void {
    switch (name) {
      case 'class':
        return; // the most common attribute, and one we never read
      case 'id':
        this.id ??= value;
        return;
      case 'style':
        this.style ??= value;
        return;
      case 'hidden':
        this.hidden ??= value;
        return;
      case 'itemscope':
        this.itemscope ??= value;
        return;
      case 'itemtype':
        this.itemtype ??= value;
        return;
      case 'typeof':
        this.typeof ??= value;
        return;
    }
    this.setSpecific(name, value);
  }

  clear(): void {
    this.id = this.style = this.hidden = this.itemscope = this.itemtype = this.typeof = undefined;
    if (!this.specificSet) return;
    this.specificSet = false;
    this.action = this.alt = this.ariaLabel = this.as = this.async = this.charset = this.content = undefined;
    this.data = this.defer = this.height = this.href = this.hreflang = this.httpEquiv = this.lang = undefined;
    this.loading = this.media = this.method = this.name = this.onclick = this.poster = this.preload = undefined;
    this.property = this.rel = this.role = this.src = this.srcset = this.target = this.title = undefined;
    this.type = this.width = undefined;
  }

  private setSpecific(name: string, value: string): void {
    switch (name) {
      case 'href':
        this.href ??= value;
        break;
      case 'src':
        this.src ??= value;
        break;
      case 'alt':
        this.alt ??= value;
        break;
      case 'rel':
        this.rel ??= value;
        break;
      case 'type':
        this.type ??= value;
        break;
      case 'title':
        this.title ??= value;
        break;
      case 'role':
        this.role ??= value;
        break;
      case 'name':
        this.name ??= value;
        break;
      case 'content':
        this.content ??= value;
        break;
      case 'property':
        this.property ??= value;
        break;
      case 'width':
        this.width ??= value;
        break;
      case 'height':
        this.height ??= value;
        break;
      case 'srcset':
        this.srcset ??= value;
        break;
      case 'loading':
        this.loading ??= value;
        break;
      case 'target':
        this.target ??= value;
        break;
      case 'aria-label':
        this.ariaLabel ??= value;
        break;
      case 'onclick':
        this.onclick ??= value;
        break;
      case 'lang':
        this.lang ??= value;
        break;
      case 'charset':
        this.charset ??= value;
        break;
      case 'http-equiv':
        this.httpEquiv ??= value;
        break;
      case 'hreflang':
        this.hreflang ??= value;
        break;
      case 'media':
        this.media ??= value;
        break;
      case 'as':
        this.as ??= value;
        break;
      case 'async':
        this.async ??= value;
        break;
      case 'defer':
        this.defer ??= value;
        break;
      case 'poster':
        this.poster ??= value;
        break;
      case 'preload':
        this.preload ??= value;
        break;
      case 'data':
        this.data ??= value;
        break;
      case 'action':
        this.action ??= value;
        break;
      case 'method':
        this.method ??= value;
        break;
      default:
        return;
    }
    this.specificSet = true;
  }
}
