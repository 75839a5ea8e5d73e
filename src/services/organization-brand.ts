// An organisation's white-label fields as PUT /organizations/{id} takes them (docs/organisations.md,
// "White-label"): a name, a #rrggbb colour and a logo sent as a data: URL, checked to be an image of
// the type it claims and at most 1 MiB, stored as base64 with its type.
import { boundedText, ValidationError } from './errors.ts';

const BRAND_LOGO_MAX_BYTES = 1_048_576;
const BRAND_NAME_MAX = 60;
const COLOR = /^#[0-9a-fA-F]{6}$/;
const DATA_URL = /^data:([a-z]+\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/]*={0,2})$/i;

/** The media types a logo may have, and how their bytes begin. */
const LOGO_SIGNATURES: Record<string, (bytes: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/webp': (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  'image/gif': (b) => ['GIF87a', 'GIF89a'].includes(b.subarray(0, 6).toString('latin1')),
  // Text: past a BOM, an XML declaration, comments and a doctype, the root element is <svg.
  'image/svg+xml': (b) => /^(?:\uFEFF)?\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>]/i.test(b.subarray(0, 4096).toString('utf8')),
};
const LOGO_TYPES = Object.keys(LOGO_SIGNATURES);

export interface BrandChanges {
  brand_name?: string | null;
  brand_color?: string | null;
  brand_logo_type?: string | null;
  brand_logo?: string | null;
}

/** null, or an empty value from a form: the field is cleared (the server's brand shows again). */
function cleared(value: unknown): boolean {
  return value === null || value === '';
}

function checkBrandName(value: unknown): string | null {
  if (cleared(value)) return null;
  return boundedText('brand_name', 'brand name', value, BRAND_NAME_MAX);
}

function checkBrandColor(value: unknown): string | null {
  if (cleared(value)) return null;
  if (typeof value !== 'string' || !COLOR.test(value.trim())) {
    throw new ValidationError('brand_color', 'The brand colour must be a colour written #rrggbb.');
  }
  return value.trim().toLowerCase();
}

/** The logo's type and its bytes in base64, or null to clear it. */
function checkBrandLogo(value: unknown): { type: string; base64: string } | null {
  if (cleared(value)) return null;
  const refused = new ValidationError('brand_logo', `The brand logo must be a data: URL (data:<type>;base64,...) of one of ${LOGO_TYPES.join(', ')}.`);
  const match = typeof value === 'string' ? DATA_URL.exec(value.trim()) : null;
  if (!match) throw refused;
  const type = match[1].toLowerCase();
  if (!(type in LOGO_SIGNATURES)) throw refused;
  const bytes = Buffer.from(match[2], 'base64');
  if (bytes.length > BRAND_LOGO_MAX_BYTES) {
    throw new ValidationError('brand_logo', `The brand logo must be at most 1 MiB (${BRAND_LOGO_MAX_BYTES} bytes) once decoded; it is ${bytes.length} bytes.`);
  }
  if (bytes.length === 0 || !LOGO_SIGNATURES[type](bytes)) {
    throw new ValidationError('brand_logo', `The brand logo's bytes are not a ${type} image; send one of ${LOGO_TYPES.join(', ')} as the type it is.`);
  }
  return { type, base64: bytes.toString('base64') };
}

/** The columns a PUT changes: only the fields it names. */
export function brandChanges(input: { brand_name?: unknown; brand_color?: unknown; brand_logo?: unknown }): BrandChanges {
  const changes: BrandChanges = {};
  if (input.brand_name !== undefined) changes.brand_name = checkBrandName(input.brand_name);
  if (input.brand_color !== undefined) changes.brand_color = checkBrandColor(input.brand_color);
  if (input.brand_logo !== undefined) {
    const logo = checkBrandLogo(input.brand_logo);
    changes.brand_logo_type = logo?.type ?? null;
    changes.brand_logo = logo?.base64 ?? null;
  }
  return changes;
}
