// Words and numbers as the pages show them.
import type { Verdict } from '../../analysis/types.ts';
import type { Category, Importance } from '../../checks/check.ts';
import type { Privacy } from '../../services/types.ts';
import { html, type SafeHtml } from '../html.ts';

export const CATEGORY_NAMES: Record<Category, string> = {
  seo: 'SEO',
  performance: 'Performance',
  security: 'Security',
  miscellaneous: 'Miscellaneous',
  accessibility: 'Accessibility',
};

export const VERDICT_NAMES: Record<Verdict, string> = { good: 'Good', decent: 'Decent', bad: 'Bad' };

export const IMPORTANCE_NAMES: Record<Importance, string> = { high: 'High', medium: 'Medium', low: 'Low' };

export const PRIVACY_NAMES: Record<Privacy, string> = { 0: 'Public', 1: 'Private', 2: 'Password' };

export const PRIVACY_DESCRIPTIONS: Record<Privacy, string> = {
  0: 'Anyone with the link can see it.',
  1: 'Only you, signed in, can see it.',
  2: 'Anyone with the link and the password can see it.',
};

const integer = new Intl.NumberFormat('en');
const dateTime = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

export function formatNumber(value: number): string {
  return integer.format(value);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${formatNumber(bytes)} bytes`;
  const kib = bytes / 1024;
  return kib < 1024 ? `${kib.toFixed(1)} KiB` : `${(kib / 1024).toFixed(1)} MiB`;
}

/**
 * A <time> element: the machine-readable instant and a short UTC date for people ("2 Dec 2026, 03:03
 * UTC"), the day and the time each kept on one line.
 */
export function timeElement(iso: string): SafeHtml {
  const [day, time] = dateTime.format(new Date(iso)).split(', ');
  return time === undefined
    ? html`<time datetime="${iso}">${day} UTC</time>`
    : html`<time datetime="${iso}"><span class="datetime-part">${day},</span> <span class="datetime-part">${time} UTC</span></time>`;
}

/** snake_case keys of check values as words: "transferred_bytes" -> "transferred bytes". */
export function humanise(key: string): string {
  const words = key.replaceAll('_', ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The URL without its scheme (and without a lone trailing slash): how people write it. */
export function shortUrl(url: string, max = 80): string {
  const short = url.replace(/^https?:\/\//, '').replace(/^([^/]+)\/$/, '$1');
  const characters = [...short];
  return characters.length > max ? `${characters.slice(0, max - 1).join('')}…` : short;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatNumber(count)} ${count === 1 ? one : many}`;
}
