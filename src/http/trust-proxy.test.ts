import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrustProxy } from '../config.ts';
import { proxyTrust } from './trust-proxy.ts';

/** A bare Fastify with the setting, answering the client address and protocol it settled on. */
async function appTrusting(setting: TrustProxy): Promise<FastifyInstance> {
  const app = Fastify({ trustProxy: proxyTrust(setting) });
  app.get('/', async (request) => ({ ip: request.ip, protocol: request.protocol }));
  await app.ready();
  return app;
}

describe('proxyTrust: who the client is, as Fastify sees it', () => {
  const apps = new Map<string, FastifyInstance>();
  beforeAll(async () => {
    apps.set('off', await appTrusting(false));
    apps.set('1', await appTrusting('one-local-proxy'));
    apps.set('list', await appTrusting(['10.0.0.0/8', '::1']));
  });
  afterAll(async () => {
    for (const app of apps.values()) await app.close();
  });

  async function seen(setting: string, peer: string, headers: Record<string, string> = {}) {
    const response = await apps.get(setting)!.inject({ url: '/', remoteAddress: peer, headers });
    return response.json() as { ip: string; protocol: string };
  }

  it('off: the TCP peer, whatever the headers say', async () => {
    expect(await seen('off', '127.0.0.1', { 'x-forwarded-for': '198.51.100.7', 'x-forwarded-proto': 'https' })).toEqual({ ip: '127.0.0.1', protocol: 'http' });
  });

  it('1: behind a loopback peer, the right-most X-Forwarded-For entry and X-Forwarded-Proto\'s right-most value', async () => {
    const headers = { 'x-forwarded-for': '203.0.113.9, 192.0.2.1, 198.51.100.7', 'x-forwarded-proto': 'http, https' };
    for (const peer of ['127.0.0.1', '127.3.4.5', '::1', '::ffff:127.0.0.1']) {
      expect(await seen('1', peer, headers), peer).toEqual({ ip: '198.51.100.7', protocol: 'https' });
    }
    // One hop only: a loopback address the client wrote to the left is not a proxy.
    expect((await seen('1', '127.0.0.1', { 'x-forwarded-for': '203.0.113.9, 127.0.0.1' })).ip).toBe('127.0.0.1');
    // Without the header the peer is the client.
    expect(await seen('1', '127.0.0.1')).toEqual({ ip: '127.0.0.1', protocol: 'http' });
  });

  it('1: any other peer is itself the client, and its X-Forwarded-* are ignored', async () => {
    const headers = { 'x-forwarded-for': '198.51.100.7', 'x-forwarded-proto': 'https' };
    for (const peer of ['192.0.2.50', '10.0.0.1', '::ffff:192.0.2.50']) {
      expect(await seen('1', peer, headers), peer).toEqual({ ip: peer, protocol: 'http' });
    }
  });

  it('a list: from the right, the first address that is not a listed proxy; the left-most when all are', async () => {
    expect((await seen('list', '10.0.0.5', { 'x-forwarded-for': '203.0.113.9, 198.51.100.7, 10.20.0.1' })).ip).toBe('198.51.100.7');
    expect((await seen('list', '::1', { 'x-forwarded-for': '198.51.100.7' })).ip).toBe('198.51.100.7');
    expect((await seen('list', '10.0.0.5', { 'x-forwarded-for': '10.0.0.9, 10.0.0.8' })).ip).toBe('10.0.0.9');
    // 127.0.0.1 is not in this list.
    expect((await seen('list', '127.0.0.1', { 'x-forwarded-for': '198.51.100.7' })).ip).toBe('127.0.0.1');
    expect((await seen('list', '10.0.0.5', { 'x-forwarded-proto': 'https' })).protocol).toBe('https');
  });
});
