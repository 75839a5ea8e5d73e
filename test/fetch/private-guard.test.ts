// The private-address guard against real servers on this machine. 127.0.0.2 stands in for a public
// host through the publicAddressesForTests seam; 127.0.0.1 stays what it is, a loopback address.
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyAddress } from '../../src/fetch/address-classification.ts';
import { FetchError } from '../../src/fetch/fetch-error.ts';
import { fetchPage } from '../../src/fetch/fetch-page.ts';
import { sendHtml, startServer, testOptions, type TestServer } from './support/test-server.ts';

const refusePrivate = testOptions({ allowPrivate: false });
const seamOptions = testOptions({ allowPrivate: false, publicAddressesForTests: ['127.0.0.2'] });

// This machine's own name usually resolves (through /etc/hosts) to a loopback or private address:
// the one real name the DNS path of the guard can be tested with, without a network.
const machineName = hostname();
const machineAddresses = await lookup(machineName, { all: true }).catch(() => []);
const machineNameIsPrivate = machineAddresses.length > 0 && machineAddresses.every(({ address }) => classifyAddress(address) !== null);
const machineNameIsLoopback = machineAddresses.length > 0 && machineAddresses.every(({ address }) => address === '127.0.0.1');

let loopback: TestServer;
let seamHost: TestServer;
beforeAll(async () => {
  loopback = await startServer((_req, res) => sendHtml(res, '<title>internal admin</title>'));
  seamHost = await startServer(
    (req, res) => {
      if (req.url === '/to-loopback') {
        res.writeHead(302, { location: `http://127.0.0.1:${loopback.port}/secret` });
        res.end();
      } else if (req.url === '/to-localhost') {
        res.writeHead(301, { location: `http://localhost:${loopback.port}/secret` });
        res.end();
      } else if (req.url === '/to-decimal') {
        res.writeHead(301, { location: `http://2130706433:${loopback.port}/secret` });
        res.end();
      } else {
        sendHtml(res, '<title>public page</title>');
      }
    },
    { host: '127.0.0.2' },
  );
});
afterAll(async () => {
  await loopback.close();
  await seamHost.close();
});

async function refusal(url: string, options = refusePrivate): Promise<FetchError> {
  const outcome = await fetchPage(url, options).then(
    () => null,
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(FetchError);
  expect((outcome as FetchError).code).toBe('private_address');
  return outcome as FetchError;
}

describe('private-address guard', () => {
  it('refuses 127.0.0.1 unless private targets are allowed', async () => {
    const error = await refusal(`http://127.0.0.1:${loopback.port}/`);
    expect(error.reason).toBe('127.0.0.1 is a loopback address; pagegrade does not analyse private networks (an operator can allow them with PAGEGRADE_ALLOW_PRIVATE_URLS=1).');
    const allowed = await fetchPage(`http://127.0.0.1:${loopback.port}/`, testOptions({ allowPrivate: true }));
    expect(allowed.statusCode).toBe(200);
  });

  it.each(['2130706433', '0x7f.1', '0177.0.0.1', '127.1', '0x7f000001', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]'])(
    'refuses the loopback spelling %s',
    async (host) => {
      await refusal(`http://${host}:${loopback.port}/`);
    },
  );

  it('refuses ::1 and localhost names without connecting', async () => {
    await refusal(`http://[::1]:${loopback.port}/`);
    const error = await refusal(`http://localhost:${loopback.port}/`);
    expect(error.reason).toBe('localhost is this machine; pagegrade does not analyse private networks (an operator can allow them with PAGEGRADE_ALLOW_PRIVATE_URLS=1).');
    await refusal(`http://app.localhost:${loopback.port}/`);
  });

  it('lets a seam address through', async () => {
    const page = await fetchPage(`${seamHost.origin}/`, seamOptions);
    expect(page.html.toString()).toBe('<title>public page</title>');
  });

  it.each(['/to-loopback', '/to-localhost', '/to-decimal'])(
    'refuses a redirect from an allowed host to a loopback one (%s), before any request reaches it',
    async (path) => {
      const before = loopback.requests.length;
      await refusal(`${seamHost.origin}${path}`, seamOptions);
      expect(loopback.requests.length).toBe(before);
    },
  );

  it.skipIf(!machineNameIsPrivate)('refuses a name that resolves to a private address, after DNS', async () => {
    const error = await refusal(`http://${machineName}:${loopback.port}/`);
    expect(error.reason).toMatch(new RegExp(`^${machineName} resolves to .*; pagegrade does not analyse private networks \\(an operator can allow them with PAGEGRADE_ALLOW_PRIVATE_URLS=1\\)\\.$`));
  });

  it.skipIf(!machineNameIsLoopback)('connects to the address the guard checked', async () => {
    const page = await fetchPage(`http://${machineName}:${loopback.port}/`, testOptions({ allowPrivate: false, publicAddressesForTests: ['127.0.0.1'] }));
    expect(page.html.toString()).toBe('<title>internal admin</title>');
  });
});
