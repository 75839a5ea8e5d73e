// The security checks, in the order docs/checks.md lists them.
import type { CheckDefinition } from '../check.ts';
import { httpsEncryptionCheck } from './https-encryption.ts';
import { mixedContentCheck } from './mixed-content.ts';
import { hstsCheck } from './hsts.ts';
import { serverSignatureCheck } from './server-signature.ts';
import { unsafeCrossOriginLinksCheck } from './unsafe-cross-origin-links.ts';
import { plaintextEmailCheck } from './plaintext-email.ts';
import { securityHeadersCheck } from './security-headers.ts';
import { insecureFormsCheck } from './insecure-forms.ts';

export const securityChecks: readonly CheckDefinition[] = [
  httpsEncryptionCheck,
  mixedContentCheck,
  hstsCheck,
  serverSignatureCheck,
  unsafeCrossOriginLinksCheck,
  plaintextEmailCheck,
  securityHeadersCheck,
  insecureFormsCheck,
];
