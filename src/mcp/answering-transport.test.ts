import { describe, expect, it } from 'vitest';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { AnsweringTransport } from './answering-transport.ts';

/** A transport whose incoming messages the test makes up, and which keeps what is sent. */
function fakeTransport() {
  const sent: JSONRPCMessage[] = [];
  const inner: Transport = {
    start: async () => {},
    close: async () => {},
    send: async (message) => {
      sent.push(message);
    },
  };
  return { inner, sent, receive: (message: JSONRPCMessage) => inner.onmessage?.(message) };
}

/** Whether the promise has settled once pending callbacks ran. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

const request = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'list_checks' } });

describe('AnsweringTransport', () => {
  it('passes messages both ways', async () => {
    const { inner, sent, receive } = fakeTransport();
    const transport = new AnsweringTransport(inner);
    const received: JSONRPCMessage[] = [];
    transport.onmessage = (message) => received.push(message);
    receive(request(1));
    await transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    expect(received).toEqual([request(1)]);
    expect(sent).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
  });

  it('answered() waits for every request received until each is answered, with a result or an error', async () => {
    const { inner, receive } = fakeTransport();
    const transport = new AnsweringTransport(inner);
    expect(await settled(transport.answered())).toBe(true);
    receive(request(1));
    receive(request(2));
    receive({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const answered = transport.answered();
    await transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    // A notification from the server answers nothing.
    await transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } });
    expect(await settled(answered)).toBe(false);
    await transport.send({ jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'no' } });
    expect(await settled(answered)).toBe(true);
  });

  it('a request the client cancels is not waited for: it is never answered', async () => {
    const { inner, receive } = fakeTransport();
    const transport = new AnsweringTransport(inner);
    receive(request(7));
    const answered = transport.answered();
    receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } });
    expect(await settled(answered)).toBe(true);
  });
});
