import { defineCheck, notApplicable } from '../check.ts';
import { firstDistinctLocated } from '../locate.ts';
import type { Form } from '../../parse/page-snapshot.ts';
import { formSubmissionUrl } from './form-submission.ts';
import { Int, Obj } from '../value-schema.ts';

const InsecureFormsValue = Obj({ forms: Int(), insecure: Int(), password_forms: Int(), password_over_http: Int() });

export const insecureFormsCheck = defineCheck<typeof InsecureFormsValue>({
  id: 'insecure_forms',
  category: 'security',
  importance: 'medium',
  title: 'Forms submit over https',
  failureTitle: 'Forms submit over plain http',
  description:
    'A form that submits to an http:// address sends what visitors type, passwords included, readable to anyone on the network; browsers warn before such submissions.',
  howToFix: 'Serve the page over https and make every form `action` an https:// or relative URL.',
  labels: {
    forms: 'Forms', insecure: 'Forms posting to http', password_forms: 'Forms with a password field',
    password_over_http: 'Password fields on an http page', insecure_action: 'Forms posting to http', action: 'Form action',
  },
  value: InsecureFormsValue,
  run(ctx) {
    const { forms } = ctx.snapshot;
    if (forms.length === 0) return notApplicable('the page has no forms');
    const insecure: { action: string; form: Form }[] = [];
    const passwordOverHttp: { action: string; form: Form }[] = [];
    for (const form of forms) {
      // An absent action submits to the page itself, so every form of an http page submits over http.
      const url = formSubmissionUrl(form, ctx);
      if (url?.protocol !== 'http:') continue;
      insecure.push({ action: url.href, form });
      if (form.hasPasswordField) passwordOverHttp.push({ action: url.href, form });
    }
    const value = {
      forms: forms.length,
      insecure: insecure.length,
      password_forms: forms.filter((form) => form.hasPasswordField).length,
      password_over_http: passwordOverHttp.length,
    };
    if (insecure.length === 0) return { passed: true, value, errors: null };
    const listed = (found: typeof insecure) => firstDistinctLocated(found, ({ action }) => action, ({ form }) => form, 'action', ctx.page);
    const errors: Record<string, unknown[]> = { insecure_action: listed(insecure) };
    if (passwordOverHttp.length > 0) errors.password_over_http = listed(passwordOverHttp);
    return { passed: false, value, errors };
  },
});
