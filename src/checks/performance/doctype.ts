import type { Static } from '@sinclair/typebox';
import { defineCheck, type CheckOutcome } from '../check.ts';
import { documentMode } from '../../parse/doctype.ts';
import { Nullable, Obj, OneOf, Str } from '../value-schema.ts';

const DoctypeValue = Obj({ doctype: Nullable(Str()), mode: OneOf(['no-quirks', 'limited-quirks', 'quirks']) });

export const doctypeCheck = defineCheck<typeof DoctypeValue>({
  id: 'doctype',
  category: 'performance',
  importance: 'medium',
  title: 'The doctype gives standards mode',
  failureTitle: 'The page renders in quirks mode',
  description:
    'Without `<!DOCTYPE html>` (or with an old one) browsers fall back to quirks mode, which lays the page out with legacy rules and can render it differently from browser to browser.',
  howToFix:
    'Start the document with `<!DOCTYPE html>` as the very first thing, before `<html>` and before any other output (a stray warning printed by the server counts).',
  labels: {
    doctype: 'Doctype', mode: 'Rendering mode', missing: 'No doctype', limited_quirks_mode: 'Limited-quirks mode',
    quirks_mode: 'Quirks mode', content_before_doctype: 'Content before the doctype',
  },
  value: DoctypeValue,
  run({ snapshot }): CheckOutcome<Static<typeof DoctypeValue>> {
    const { raw, standardsMode } = snapshot.doctype;
    if (raw === null) return { passed: false, value: { doctype: null, mode: 'quirks' }, errors: { missing: ['<!DOCTYPE html>'] } };
    if (standardsMode) return { passed: true, value: { doctype: raw, mode: 'no-quirks' }, errors: null };
    const declared = documentMode(raw);
    // A doctype that would give standards mode still gives quirks mode when text or tags come before it.
    if (declared === 'no-quirks') {
      return { passed: false, value: { doctype: raw, mode: 'quirks' }, errors: { content_before_doctype: [raw] } };
    }
    return {
      passed: false,
      value: { doctype: raw, mode: declared },
      errors: declared === 'limited-quirks' ? { limited_quirks_mode: [raw] } : { quirks_mode: [raw] },
    };
  },
});
