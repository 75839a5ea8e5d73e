// A transport that knows which requests it has not answered yet. `pagegrade mcp` stops when its input
// ends, but a client may send its last requests and close its end of the pipe at once (a script, say,
// `... | pagegrade mcp`): closing the server then would drop answers still being worked out, an
// analysis that takes seconds among them. So the command waits for `answered()` before it closes.
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

export class AnsweringTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  private readonly unanswered = new Set<RequestId>();
  private whenIdle: (() => void)[] = [];

  constructor(private readonly inner: Transport) {
    inner.onmessage = (message, extra) => {
      // Counted as it arrives, before the server has even started on it.
      if (isJSONRPCRequest(message)) this.unanswered.add(message.id);
      // A cancelled request is never answered (the protocol says so), so it is no longer waited for.
      if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') this.forget(message.params?.requestId);
      this.onmessage?.(message, extra);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    await this.inner.send(message, options);
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) this.forget(message.id);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** Resolves once every request received so far has been answered (at once when none waits). */
  answered(): Promise<void> {
    if (this.unanswered.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.whenIdle.push(resolve));
  }

  private forget(id: unknown): void {
    if ((typeof id !== 'string' && typeof id !== 'number') || !this.unanswered.delete(id) || this.unanswered.size > 0) return;
    const waiting = this.whenIdle;
    this.whenIdle = [];
    for (const resolve of waiting) resolve();
  }
}
