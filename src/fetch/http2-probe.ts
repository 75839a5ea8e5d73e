// Does an https origin negotiate HTTP/2? A TLS handshake offering h2 and http/1.1 through ALPN
// answers it without sending a request. The connection is guarded like every other.
import { isIP } from 'node:net';
import tls from 'node:tls';
import { guardedLookup, refusalBeforeLookup, type AddressPolicy } from './address-guard.ts';

/** true/false for https origins; null for http, or when the handshake could not be made. */
export function negotiatesHttp2(origin: URL, policy: AddressPolicy, signal: AbortSignal): Promise<boolean | null> {
  if (origin.protocol !== 'https:') return Promise.resolve(null);
  const host = origin.hostname.startsWith('[') ? origin.hostname.slice(1, -1) : origin.hostname;
  if (refusalBeforeLookup(host, policy) || signal.aborted) return Promise.resolve(null);

  return new Promise((resolve) => {
    const socket = tls.connect({
      host,
      port: Number(origin.port || 443),
      servername: isIP(host) ? undefined : host,
      ALPNProtocols: ['h2', 'http/1.1'],
      // Only the negotiated protocol is read; the page fetch itself judges the certificate.
      rejectUnauthorized: false,
      ...(policy.allowPrivate ? {} : { lookup: guardedLookup(policy) }),
    });
    const finish = (answer: boolean | null) => {
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(answer);
    };
    const onAbort = () => finish(null);
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('secureConnect', () => finish(socket.alpnProtocol === 'h2'));
    socket.once('error', () => finish(null));
  });
}
