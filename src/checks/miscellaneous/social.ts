import { capItems, defineCheck } from '../check.ts';
import { anchorTargets, isWebProtocol } from '../../parse/link-urls.ts';
import { resolveUrl, siteHost, siteHostname } from '../../parse/url.ts';
import { Int, List, Obj, Str } from '../value-schema.ts';

/** Social network host → network name. Subdomains count too (m.facebook.com, de.linkedin.com). */
const NETWORKS: Record<string, string> = {
  'x.com': 'x', 'twitter.com': 'x', 'facebook.com': 'facebook', 'fb.com': 'facebook', 'instagram.com': 'instagram',
  'linkedin.com': 'linkedin', 'youtube.com': 'youtube', 'youtu.be': 'youtube', 'tiktok.com': 'tiktok',
  'pinterest.com': 'pinterest', 'threads.net': 'threads', 'threads.com': 'threads', 'mastodon.social': 'mastodon',
  'bsky.app': 'bluesky', 'github.com': 'github', 'reddit.com': 'reddit', 't.me': 'telegram', 'discord.gg': 'discord',
  'discord.com': 'discord', 'twitch.tv': 'twitch', 'vimeo.com': 'vimeo', 'snapchat.com': 'snapchat', 'tumblr.com': 'tumblr',
  'medium.com': 'medium', 'vk.com': 'vk', 'weibo.com': 'weibo', 'xing.com': 'xing', 'flickr.com': 'flickr',
  'dribbble.com': 'dribbble', 'behance.net': 'behance', 'soundcloud.com': 'soundcloud',
};
/** Paths that share the current page rather than point to a profile (intent/tweet, sharer.php, shareArticle, pin/create, submit). */
const SHARE_PATH = /^\/(.*\/)?(intent|share|sharer|sharer\.php|share\.php|sharearticle|sharing|dialog)(\/|$)|^\/pin\/create|^\/submit$/i;

const SocialValue = Obj({ profiles: List(Str()), profile_count: Int(), networks: List(Str()) });

export const socialCheck = defineCheck<typeof SocialValue>({
  id: 'social',
  category: 'miscellaneous',
  importance: 'low',
  title: 'The page links to social profiles',
  failureTitle: 'The page links to no social profile',
  description:
    'Links to your profiles on social networks let visitors follow you and help search engines connect the site with its social accounts (e.g. in a knowledge panel).',
  howToFix: 'Link your social profiles (e.g. in the footer) with ordinary `<a href>` links; add `rel="me"` where the network supports it.',
  labels: {
    profiles: 'Profiles', profile_count: 'Profiles linked', networks: 'Networks', missing: 'No social profile',
  },
  value: SocialValue,
  run({ page, snapshot }) {
    const pageUrl = resolveUrl(page.finalUrl, page.finalUrl);
    const pageHost = pageUrl ? siteHost(pageUrl) : null;
    const profiles = new Map<string, string>();
    // Most links of a page share a few hosts: look each host up once.
    const networkByHost = new Map<string, string | null>();
    const { anchors } = snapshot;
    const targets = anchorTargets(snapshot);
    for (let i = 0; i < anchors.length; i++) {
      const anchor = anchors[i];
      if (anchor.href === null || !isWebProtocol(targets.protocols[i])) continue;
      const host = targets.hostnames[i];
      let known = networkByHost.get(host);
      if (known === undefined) networkByHost.set(host, (known = networkOf(host)));
      // rel=me marks a link to the author's own profile, on any network (Mastodon instances included).
      const network = known ?? (anchor.rel.includes('me') && siteHostname(host) !== pageHost ? host : null);
      if (network === null || !isProfilePath(targets.pathname(i) as string)) continue;
      const profile = targets.hrefWithoutHash(i) as string;
      if (!profiles.has(profile)) profiles.set(profile, network);
    }
    const value = {
      profiles: capItems([...profiles.keys()]),
      profile_count: profiles.size,
      networks: [...new Set(profiles.values())],
    };
    if (profiles.size > 0) return { passed: true, value, errors: null };
    return { passed: false, value, errors: { missing: ['a link to a social profile'] } };
  },
});

const NETWORK_BY_DOMAIN = new Map(Object.entries(NETWORKS));

/** The network of a host or of any parent domain (m.facebook.com → facebook). */
function networkOf(hostname: string): string | null {
  let host = hostname.toLowerCase().replace(/\.$/, '');
  for (;;) {
    const network = NETWORK_BY_DOMAIN.get(host);
    if (network !== undefined) return network;
    const dot = host.indexOf('.');
    if (dot === -1) return null;
    host = host.slice(dot + 1);
  }
}

/** A profile has a path (a URL's pathname); the bare home page and share buttons are not profiles. */
function isProfilePath(pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '');
  return path !== '' && !SHARE_PATH.test(path);
}
