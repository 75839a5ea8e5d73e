import { describe, expect, it } from 'vitest';
import { createNetworkTally, resourceType, type NetworkTally } from './lab-network.ts';

const sent = (tally: NetworkTally, requestId: string, url: string, type?: string, redirectResponse?: object) =>
  tally.handle('Network.requestWillBeSent', { requestId, request: { url }, ...(type ? { type } : {}), ...(redirectResponse ? { redirectResponse } : {}) });
const finished = (tally: NetworkTally, requestId: string, encodedDataLength: number) => tally.handle('Network.loadingFinished', { requestId, encodedDataLength });

describe('resourceType', () => {
  it('names the five types the report keeps, and everything else other', () => {
    expect(['Document', 'Script', 'Stylesheet', 'Image', 'Font'].map(resourceType)).toEqual(['document', 'script', 'stylesheet', 'image', 'font']);
    expect(['XHR', 'Fetch', 'Media', 'WebSocket', 'Manifest', 'Preflight', 'Other', undefined, 42].map(resourceType)).toEqual(Array(9).fill('other'));
  });
});

describe('the network tally', () => {
  it('starts empty, with the six types', () => {
    const empty = { requests: 0, bytes: 0 };
    expect(createNetworkTally().resources()).toEqual({
      requests: 0,
      bytes: 0,
      by_type: { document: empty, script: empty, stylesheet: empty, image: empty, font: empty, other: empty },
    });
  });

  it('counts each request by its type with the bytes loadingFinished gives, adding up to the totals', () => {
    const tally = createNetworkTally();
    sent(tally, '1', 'https://example.com/', 'Document');
    sent(tally, '2', 'https://example.com/app.js', 'Script');
    sent(tally, '3', 'https://example.com/hero.jpg', 'Image');
    sent(tally, '4', 'https://example.com/api', 'Fetch');
    finished(tally, '1', 4_100);
    finished(tally, '2', 20_000);
    finished(tally, '3', 2_000_000);
    finished(tally, '4', 300);
    const resources = tally.resources();
    expect(resources).toMatchObject({
      requests: 4,
      bytes: 2_024_400,
      by_type: { document: { requests: 1, bytes: 4_100 }, script: { requests: 1, bytes: 20_000 }, image: { requests: 1, bytes: 2_000_000 }, other: { requests: 1, bytes: 300 } },
    });
    const sum = Object.values(resources.by_type).reduce((total, type) => ({ requests: total.requests + type.requests, bytes: total.bytes + type.bytes }));
    expect(sum).toEqual({ requests: resources.requests, bytes: resources.bytes });
  });

  it('counts each redirect hop as a request, the hop with its redirect response\'s bytes', () => {
    const tally = createNetworkTally();
    sent(tally, '1', 'http://example.com/', 'Document');
    sent(tally, '1', 'https://example.com/', 'Document', { url: 'http://example.com/', encodedDataLength: 180 });
    sent(tally, '1', 'https://www.example.com/', 'Document', { url: 'https://example.com/', encodedDataLength: 220 });
    finished(tally, '1', 5_000);
    expect(tally.resources()).toMatchObject({ requests: 3, bytes: 5_400, by_type: { document: { requests: 3, bytes: 5_400 } } });
  });

  it('counts a request reported twice (by the page and by its frame) once', () => {
    const tally = createNetworkTally();
    sent(tally, 'F', 'https://other.example/frame', 'Document');
    sent(tally, 'F', 'https://other.example/frame', 'Document');
    sent(tally, 'F', 'https://other.example/frame2', 'Document', { url: 'https://other.example/frame', encodedDataLength: 100 });
    sent(tally, 'F', 'https://other.example/frame2', 'Document', { url: 'https://other.example/frame', encodedDataLength: 100 });
    finished(tally, 'F', 900);
    finished(tally, 'F', 900);
    expect(tally.resources()).toMatchObject({ requests: 2, bytes: 1_000 });
    expect(tally.inFlight()).toBe(0);
  });

  it('ignores data: and blob: URLs, and what comes for them later', () => {
    const tally = createNetworkTally();
    sent(tally, '1', 'data:image/png;base64,iVBORw0K', 'Image');
    sent(tally, '2', 'blob:https://example.com/5f1c', 'Script');
    finished(tally, '1', 100);
    expect(tally.resources()).toMatchObject({ requests: 0, bytes: 0 });
    expect(tally.inFlight()).toBe(0);
  });

  it('keeps the count of requests in flight for the quiet window', () => {
    const tally = createNetworkTally();
    sent(tally, '1', 'https://example.com/', 'Document');
    sent(tally, '2', 'https://example.com/a.css', 'Stylesheet');
    sent(tally, '3', 'https://example.com/b.woff2', 'Font');
    expect(tally.inFlight()).toBe(3);
    // A redirect hop does not add one: it is the same request going on.
    sent(tally, '2', 'https://cdn.example.com/a.css', 'Stylesheet', { url: 'https://example.com/a.css', encodedDataLength: 150 });
    expect(tally.inFlight()).toBe(3);
    finished(tally, '1', 1_000);
    tally.handle('Network.loadingFailed', { requestId: '3', errorText: 'net::ERR_FAILED' });
    expect(tally.inFlight()).toBe(1);
    finished(tally, '2', 2_000);
    expect(tally.inFlight()).toBe(0);
  });

  it('counts what arrived of a request that failed, or is still in flight', () => {
    const tally = createNetworkTally();
    sent(tally, '1', 'https://example.com/video.mp4', 'Media');
    tally.handle('Network.responseReceived', { requestId: '1', type: 'Media', response: { encodedDataLength: 200 } });
    tally.handle('Network.dataReceived', { requestId: '1', dataLength: 70_000, encodedDataLength: 65_536 });
    tally.handle('Network.loadingFailed', { requestId: '1', errorText: 'net::ERR_ABORTED' });
    sent(tally, '2', 'https://example.com/slow.js', 'Script');
    tally.handle('Network.responseReceived', { requestId: '2', type: 'Script', response: { encodedDataLength: 150 } });
    tally.handle('Network.dataReceived', { requestId: '2', dataLength: 1_000, encodedDataLength: 1_000 });
    expect(tally.resources()).toMatchObject({ requests: 2, bytes: 65_736 + 1_150, by_type: { other: { bytes: 65_736 }, script: { bytes: 1_150 } } });
    // Events after a request ended change nothing.
    tally.handle('Network.dataReceived', { requestId: '1', dataLength: 10, encodedDataLength: 10 });
    expect(tally.resources().bytes).toBe(65_736 + 1_150);
  });

  it('takes the response\'s type when the request came without one', () => {
    const tally = createNetworkTally();
    sent(tally, '1', 'https://example.com/font');
    tally.handle('Network.responseReceived', { requestId: '1', type: 'Font', response: { encodedDataLength: 100 } });
    finished(tally, '1', 30_000);
    expect(tally.resources().by_type.font).toEqual({ requests: 1, bytes: 30_000 });
  });

  it('counts a websocket as a request of type other, never in flight', () => {
    const tally = createNetworkTally();
    tally.handle('Network.webSocketCreated', { requestId: 'w', url: 'wss://example.com/live' });
    tally.handle('Network.webSocketCreated', { requestId: 'w', url: 'wss://example.com/live' });
    expect(tally.resources().by_type.other).toEqual({ requests: 1, bytes: 0 });
    expect(tally.inFlight()).toBe(0);
  });

  it('ignores other methods and events of another shape', () => {
    const tally = createNetworkTally();
    tally.handle('Network.requestServedFromCache', { requestId: '1' });
    tally.handle('Network.loadingFinished', null);
    tally.handle('Network.loadingFinished', { requestId: 'unknown', encodedDataLength: 5 });
    tally.handle('toString', { requestId: '1' });
    expect(tally.resources()).toMatchObject({ requests: 0, bytes: 0 });
  });
});
