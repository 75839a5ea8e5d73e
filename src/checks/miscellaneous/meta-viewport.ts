import { defineCheck } from '../check.ts';
import { parseViewport } from '../../parse/viewport.ts';
import { Nullable, Num, Obj, Opt, Str } from '../value-schema.ts';

/** Lighthouse's accessibility rule: a maximum-scale under 5 stops people with low vision from zooming enough. */
const MIN_MAXIMUM_SCALE = 5;

const MetaViewportValue = Obj({
  content: Nullable(Str()),
  width: Opt(Nullable(Str())),
  user_scalable: Opt(Nullable(Str())),
  maximum_scale: Opt(Nullable(Num())),
  zoom_rule: Opt(Str()),
});

export const metaViewportCheck = defineCheck<typeof MetaViewportValue>({
  id: 'meta_viewport',
  category: 'miscellaneous',
  importance: 'medium',
  title: 'The page is set up for mobile screens',
  failureTitle: 'The page is not set up for mobile screens',
  description:
    'Without `<meta name="viewport" content="width=device-width">` phones render the page at desktop width and shrink it; Google indexes the mobile view first. Blocking zoom shuts out people with low vision.',
  howToFix:
    'Put `<meta name="viewport" content="width=device-width, initial-scale=1">` in the head, without `user-scalable=no` and without a `maximum-scale` below 5.',
  labels: {
    content: 'Viewport tag', width: 'width', user_scalable: 'user-scalable', maximum_scale: 'maximum-scale', zoom_rule: 'Zoom',
    missing: 'No viewport tag', no_device_width: 'No width=device-width', zoom_disabled: 'Zoom disabled',
    maximum_scale_too_low: 'maximum-scale too low',
  },
  value: MetaViewportValue,
  run({ snapshot }) {
    // Browsers apply viewport tags in order, so the last one wins.
    const tag = snapshot.metas.filter((meta) => meta.name === 'viewport').at(-1);
    const content = tag?.content?.trim() || null;
    if (content === null) {
      const problem = tag ? 'the viewport meta tag has no content' : 'no <meta name="viewport"> tag';
      return { passed: false, value: { content: null }, errors: { missing: [problem] } };
    }
    const properties = parseViewport(content);
    const width = properties.get('width') ?? null;
    const userScalable = properties.get('user-scalable') ?? null;
    const maximumScale = properties.has('maximum-scale') ? Number.parseFloat(properties.get('maximum-scale') ?? '') : null;
    const value = {
      content,
      width,
      user_scalable: userScalable,
      maximum_scale: maximumScale === null || Number.isNaN(maximumScale) ? null : maximumScale,
      zoom_rule: `zoom counts as disabled by user-scalable=no or 0, or maximum-scale below ${MIN_MAXIMUM_SCALE} (Lighthouse meta-viewport)`,
    };
    const errors: Record<string, string[]> = {};
    if (width !== 'device-width') errors.no_device_width = [content];
    if (userScalable === 'no' || userScalable === '0') errors.zoom_disabled = [`user-scalable=${userScalable}`];
    if (value.maximum_scale !== null && value.maximum_scale < MIN_MAXIMUM_SCALE) {
      errors.maximum_scale_too_low = [`maximum-scale=${value.maximum_scale}`];
    }
    if (Object.keys(errors).length === 0) return { passed: true, value, errors: null };
    return { passed: false, value, errors };
  },
});
