import { describe, it, expect } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import { serverSignatureCheck } from './server-signature.ts';

const run = (headers: Record<string, string>) => serverSignatureCheck.run(makeContext({ page: { headers } }));

describe('server_signature', () => {
  it.each(['nginx', 'cloudflare', 'Apache', 'AmazonS3', 'mw1234.eqiad.wmnet', 'ECAcc (nyd/D13E)'])('passes Server: %s', (server) => {
    expect(run({ server }).passed).toBe(true);
  });

  it('passes without signature headers and reports them as null', () => {
    expect(run({})).toMatchObject({ passed: true, value: { server: null, x_powered_by: null } });
  });

  it.each([
    ['server', 'nginx/1.25.3'],
    ['server', 'Microsoft-IIS/10.0'],
    ['server', 'Apache/2'],
    ['x-powered-by', 'PHP/8.1'],
    ['x-powered-by', 'PHP 8.2.1'],
    ['x-aspnet-version', '4.0.30319'],
  ])('fails %s: %s and lists the header', (name, header) => {
    expect(run({ [name]: header })).toMatchObject({ passed: false, errors: { version_exposed: [`${name}: ${header}`] } });
  });
});
