// The static registry of every check, category by category: docs/checks.md is generated from it, in
// this order. Reports list results in this order.
import type { CheckDefinition } from './check.ts';
import { seoChecks } from './seo/index.ts';
import { performanceChecks } from './performance/index.ts';
import { securityChecks } from './security/index.ts';
import { miscellaneousChecks } from './miscellaneous/index.ts';
import { accessibilityChecks } from './accessibility/index.ts';

export const allChecks: readonly CheckDefinition[] = [
  ...seoChecks,
  ...performanceChecks,
  ...securityChecks,
  ...miscellaneousChecks,
  ...accessibilityChecks,
];

export const checksById: ReadonlyMap<string, CheckDefinition> = new Map(allChecks.map((check) => [check.id, check]));
