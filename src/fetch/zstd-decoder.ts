// A Transform that undoes zstd on a thread of its own (zstd-worker.mjs), one input chunk at a time,
// after ZstdFrameGuard has checked every frame's window. Destroying it (the fetch deadline, a failed
// pipeline, a body read no further) terminates the thread, whatever it was doing.
import { Transform, type TransformCallback } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { BodyTooLargeError, ZstdDataError } from './content-decoding-errors.ts';

const WORKER_URL = new URL('./zstd-worker.mjs', import.meta.url);

type WorkerReply =
  | { block: Uint8Array }
  | { consumed: true }
  | { done: true }
  | { error: 'too_large' | 'data'; message: string };

export class ZstdDecoder extends Transform {
  private worker: Worker | null = null;
  /** The callback of the chunk (or the end) the thread is working on. */
  private pending: TransformCallback | null = null;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    const copy = new Uint8Array(chunk);
    this.pending = callback;
    this.thread().postMessage({ chunk: copy }, [copy.buffer]);
  }

  override _flush(callback: TransformCallback): void {
    // An empty body never started a thread, and decodes to nothing.
    if (!this.worker) return callback();
    this.pending = callback;
    this.worker.postMessage({ end: true });
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    void this.worker?.terminate();
    this.worker = null;
    callback(error);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_URL, { workerData: { maxBytes: this.maxBytes } });
    // A thread never keeps the process alive (the CLI exits when its work is done).
    worker.unref();
    worker.on('message', (reply: WorkerReply) => this.onReply(reply));
    worker.on('error', (error) => this.destroy(new ZstdDataError(error.message, { cause: error })));
    this.worker = worker;
    return worker;
  }

  private onReply(reply: WorkerReply): void {
    if (this.destroyed) return;
    if ('block' in reply) {
      this.push(Buffer.from(reply.block.buffer, reply.block.byteOffset, reply.block.byteLength));
    } else if ('error' in reply) {
      this.destroy(reply.error === 'too_large' ? new BodyTooLargeError(this.maxBytes) : new ZstdDataError(reply.message));
    } else {
      if ('done' in reply) {
        void this.worker?.terminate();
        this.worker = null;
      }
      const callback = this.pending;
      this.pending = null;
      callback?.();
    }
  }
}
