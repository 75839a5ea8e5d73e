// White-label (PAGEGRADE_BRAND_*): the operator's logo at /brand/logo and the accent colour as a tiny
// stylesheet at /brand/theme.css, both made once at start. A stylesheet rather than a style attribute
// or an inline <style>: the Content-Security-Policy allows styles only from the server ('self').
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { BRAND_LOGO_TYPES, DEFAULT_BRAND, type Brand } from '../../config.ts';
import type { BrandView } from '../views/brand.ts';
import type { OrganizationBrand } from '../../services/organization.service.ts';
import { positiveId } from '../../schemas/parse-id.ts';

const LOGO_PATH = '/brand/logo';
const THEME_PATH = '/brand/theme.css';
/** Both URLs carry a hash of what they serve, so a year of caching never shows a stale logo or colour. */
const MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
/**
 * An SVG opened on its own is a document that could run script: sandboxed, with nothing to load, it
 * is only a picture. Raster images are unaffected.
 */
const LOGO_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";
/** WCAG AA for text: links and white button labels in the brand colour must stay readable on white. */
const MIN_TEXT_CONTRAST = 4.5;

function hashOf(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex').slice(0, 12);
}

/** WCAG 2 relative luminance of #rrggbb. */
function luminance(color: string): number {
  const channel = (offset: number) => {
    const value = Number.parseInt(color.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

function contrastWithWhite(color: string): number {
  return 1.05 / (luminance(color) + 0.05);
}

/**
 * The colour marks the header; it also becomes the accent of links and buttons only when text in it is
 * readable on white, so a pale brand colour never makes the report illegible.
 */
export function themeCss(color: string): string {
  const accent = contrastWithWhite(color) >= MIN_TEXT_CONTRAST ? ` --accent: ${color}; --focus: ${color};` : '';
  return `/* PAGEGRADE_BRAND_COLOR */\n:root { --brand: ${color};${accent} }\n`;
}

/** Serves the brand's logo and colour (what the built-in brand lacks serves nothing: a 404), and says how pages show the brand. */
export function registerBrand(app: FastifyInstance, brand: Brand): BrandView {
  registerOrganizationBrands(app);
  let logoUrl: string | null = null;
  if (brand.logoPath !== undefined) {
    // Read once: the configuration checked the file's type and size at start.
    const logo = readFileSync(brand.logoPath);
    const type = BRAND_LOGO_TYPES[extname(brand.logoPath).toLowerCase()];
    app.get(LOGO_PATH, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .type(type)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', LOGO_POLICY)
        .header('cache-control', `public, max-age=${MAX_AGE_SECONDS}, immutable`)
        .send(logo),
    );
    logoUrl = `${LOGO_PATH}?v=${hashOf(logo)}`;
  }
  let themeUrl: string | null = null;
  if (brand.color !== DEFAULT_BRAND.color) {
    const css = themeCss(brand.color);
    app.get(THEME_PATH, { schema: { hide: true } }, async (_request, reply) =>
      reply.type('text/css; charset=utf-8').header('cache-control', `public, max-age=${MAX_AGE_SECONDS}, immutable`).send(css),
    );
    themeUrl = `${THEME_PATH}?v=${hashOf(css)}`;
  }
  return { name: brand.name, logoUrl, themeUrl };
}

/**
 * Each organisation's white-label (docs/organisations.md, "White-label"): its logo and colour served
 * as the server's are, without auth, at URLs that carry the organisation's version; and how its pages
 * show the brand, each field falling back to the server's.
 */
function registerOrganizationBrands(app: FastifyInstance): void {
  app.get<{ Params: { id: string } }>('/brand/organizations/:id/logo', { schema: { hide: true } }, async (request, reply) => {
    const id = positiveId(request.params.id);
    const brand = id === null ? null : await app.services.organizations.brand(id);
    if (!brand?.logo) return reply.callNotFound();
    return reply
      .type(brand.logo.type)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', LOGO_POLICY)
      .header('cache-control', `public, max-age=${MAX_AGE_SECONDS}, immutable`)
      .send(brand.logo.bytes);
  });
  app.get<{ Params: { id: string } }>('/brand/organizations/:id/theme.css', { schema: { hide: true } }, async (request, reply) => {
    const id = positiveId(request.params.id);
    const brand = id === null ? null : await app.services.organizations.brand(id);
    if (!brand?.color) return reply.callNotFound();
    return reply.type('text/css; charset=utf-8').header('cache-control', `public, max-age=${MAX_AGE_SECONDS}, immutable`).send(themeCss(brand.color));
  });
}

/** The brand an organisation's pages wear: its own name, logo and colour where set, else the server's. */
export function organizationBrandView(brand: OrganizationBrand | null, fallback: BrandView): BrandView {
  if (!brand) return fallback;
  return {
    name: brand.name ?? fallback.name,
    logoUrl: brand.logo ? brand.paths.logo : fallback.logoUrl,
    themeUrl: brand.color ? brand.paths.theme : fallback.themeUrl,
  };
}
