// A web page made to stand alone, for a PDF's browser context, which makes no request at all: the
// stylesheets and images it loads from this server go inline (CSS in <style>, images as data: URIs),
// its scripts, icon and refresh go, and a Content-Security-Policy in the page allows nothing but what
// is inline.
// The page is one of our templates: everything that came from an analysed page is escaped text, so
// the tags matched here are only the templates' own.

interface LoadedAsset {
  contentType: string;
  body: Buffer;
}

/** Reads a path of this server (e.g. /assets/app.css?v=...); null when there is nothing there. */
export type AssetLoader = (path: string) => Promise<LoadedAsset | null>;

const PAGE_POLICY = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:">`;

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*"([^"]*)"`, 'i').exec(tag);
  return match ? match[1].replaceAll('&amp;', '&') : undefined;
}

/** A path on this server: "/x", never "//host/x" (another host) or anything with a scheme. */
function ownPath(url: string | undefined): url is string {
  return url !== undefined && url.startsWith('/') && !url.startsWith('//') && !url.includes('\\');
}

/** Replaces each match of `pattern` in `text` with what `replace` gives for it, one after another. */
async function replaceEach(text: string, pattern: RegExp, replace: (match: string) => Promise<string>): Promise<string> {
  const parts: string[] = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    parts.push(text.slice(last, match.index), await replace(match[0]));
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return parts.join('');
}

export async function selfContained(page: string, load: AssetLoader): Promise<string> {
  let result = page
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '')
    .replace(/<meta\s+http-equiv="refresh"[^>]*>/gi, '');
  result = await replaceEach(result, /<link\b[^>]*>/gi, async (tag) => {
    const href = attribute(tag, 'href');
    if (!/\bstylesheet\b/i.test(attribute(tag, 'rel') ?? '') || !ownPath(href)) return '';
    const asset = await load(href);
    if (!asset || !asset.contentType.startsWith('text/css')) return '';
    const media = attribute(tag, 'media');
    // A stylesheet cannot end the <style> element early unless it says "</style" itself.
    const css = asset.body.toString('utf8').replace(/<\/style/gi, '<\\/style');
    return `<style${media ? ` media="${media.replace(/[^\w ,():-]/g, '')}"` : ''}>${css}</style>`;
  });
  result = await replaceEach(result, /<img\b[^>]*>/gi, async (tag) => {
    const src = attribute(tag, 'src');
    if (!ownPath(src)) return tag;
    const asset = await load(src);
    if (!asset) return tag.replace(/\ssrc\s*=\s*"[^"]*"/i, '');
    // Only an image may become an image: nothing else is put in the page.
    const type = asset.contentType.split(';')[0].trim();
    if (!/^image\/[\w.+-]+$/.test(type)) return tag.replace(/\ssrc\s*=\s*"[^"]*"/i, '');
    return tag.replace(/\ssrc\s*=\s*"[^"]*"/i, ` src="data:${type};base64,${asset.body.toString('base64')}"`);
  });
  return result.replace(/<head>/i, (head) => `${head}\n${PAGE_POLICY}`);
}
