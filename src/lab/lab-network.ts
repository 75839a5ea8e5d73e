// Every request of a lab audit, counted from Chromium's Network events (docs/lab.md, "Resources"):
// each redirect hop is a request, `bytes` are what came over the network (headers and the body as
// sent), `data:` and `blob:` URLs are not requests. Also what the quiet window needs: how many
// requests are in flight. Pure: the audit feeds it the events of every target it watches (the page and
// its frames of other sites), in the order they came.
//
// Events that report the same request twice (a frame's document is seen by the page's target and the
// frame's own) count once: a request is known by its id, a hop by its URL.
import { RESOURCE_TYPES, type LabResources, type ResourceType } from './lab-types.ts';

export interface NetworkTally {
  /** Takes one Network event; any other method, or one of another shape, is ignored. */
  handle(method: string, params: unknown): void;
  /** Requests started and not finished nor failed (websockets, open for the page's life, never count). */
  inFlight(): number;
  /** What was counted so far; a request still in flight counts what had arrived. */
  resources(): LabResources;
}

/** CDP's resource types (Network.ResourceType) that the report names; everything else is `other`. */
const TYPE_OF: Record<string, ResourceType> = {
  Document: 'document',
  Script: 'script',
  Stylesheet: 'stylesheet',
  Image: 'image',
  Font: 'font',
};

export function resourceType(cdpType: unknown): ResourceType {
  return (typeof cdpType === 'string' && TYPE_OF[cdpType]) || 'other';
}

/** One request on the wire (a redirect hop is one). */
interface Hop {
  type: ResourceType;
  bytes: number;
}

/** A request id's current hop, while it lasts. */
interface Live {
  hop: Hop;
  url: string;
  /** CDP's type as the request gave it; without one, the response's is taken. */
  cdpType: string | null;
  /** Headers received (the response's encodedDataLength) and body chunks so far, until loadingFinished gives the total. */
  headerBytes: number;
  bodyBytes: number;
  finished: boolean;
}

const NOT_REQUESTS = /^(data|blob):/i;

type Fields = Record<string, unknown>;
const fields = (value: unknown): Fields => (typeof value === 'object' && value !== null ? (value as Fields) : {});
const byteCount = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null);

export function createNetworkTally(): NetworkTally {
  const hops: Hop[] = [];
  const requests = new Map<string, Live>();
  let inFlight = 0;

  function finish(live: Live): void {
    if (live.finished) return;
    live.finished = true;
    inFlight -= 1;
  }

  function begin(url: string, type: unknown): Live {
    const cdpType = typeof type === 'string' ? type : null;
    const hop: Hop = { type: resourceType(cdpType), bytes: 0 };
    hops.push(hop);
    return { hop, url, cdpType, headerBytes: 0, bodyBytes: 0, finished: false };
  }

  function requestWillBeSent(params: Fields): void {
    const id = String(params.requestId);
    const url = String(fields(params.request).url ?? '');
    const live = requests.get(id);
    const redirect = params.redirectResponse === undefined ? null : fields(params.redirectResponse);
    if (live) {
      // The same request again (another target saw it), or a redirect already counted: nothing new.
      if (redirect === null || live.finished || redirect.url !== live.url) return;
      live.hop.bytes = byteCount(redirect.encodedDataLength) ?? live.headerBytes + live.bodyBytes;
      if (NOT_REQUESTS.test(url)) return finish(live);
      requests.set(id, begin(url, params.type ?? live.cdpType));
      return;
    }
    if (NOT_REQUESTS.test(url)) return;
    requests.set(id, begin(url, params.type));
    inFlight += 1;
  }

  function current(params: Fields): Live | null {
    const live = requests.get(String(params.requestId));
    return live && !live.finished ? live : null;
  }

  const handlers: Record<string, (params: Fields) => void> = {
    'Network.requestWillBeSent': requestWillBeSent,
    'Network.responseReceived'(params) {
      const live = current(params);
      if (!live) return;
      if (live.cdpType === null && typeof params.type === 'string') {
        live.cdpType = params.type;
        live.hop.type = resourceType(params.type);
      }
      live.headerBytes = Math.max(live.headerBytes, byteCount(fields(params.response).encodedDataLength) ?? 0);
      live.hop.bytes = live.headerBytes + live.bodyBytes;
    },
    'Network.dataReceived'(params) {
      const live = current(params);
      if (!live) return;
      live.bodyBytes += byteCount(params.encodedDataLength) ?? 0;
      live.hop.bytes = live.headerBytes + live.bodyBytes;
    },
    'Network.loadingFinished'(params) {
      const live = current(params);
      if (!live) return;
      live.hop.bytes = byteCount(params.encodedDataLength) ?? live.hop.bytes;
      finish(live);
    },
    // A failed request counts what had arrived.
    'Network.loadingFailed'(params) {
      const live = current(params);
      if (live) finish(live);
    },
    // A websocket is a request of its own (its handshake); the frames it carries later are not counted.
    'Network.webSocketCreated'(params) {
      const id = `websocket ${String(params.requestId)}`;
      if (requests.has(id)) return;
      const live = begin(String(params.url ?? ''), 'WebSocket');
      live.finished = true;
      requests.set(id, live);
    },
  };

  return {
    handle(method, params) {
      const handler = Object.hasOwn(handlers, method) ? handlers[method] : undefined;
      const given = fields(params);
      if (handler && given.requestId !== undefined) handler(given);
    },
    inFlight: () => inFlight,
    resources() {
      const byType = Object.fromEntries(RESOURCE_TYPES.map((type) => [type, { requests: 0, bytes: 0 }])) as LabResources['by_type'];
      for (const hop of hops) {
        byType[hop.type].requests += 1;
        byType[hop.type].bytes += hop.bytes;
      }
      return { requests: hops.length, bytes: hops.reduce((sum, hop) => sum + hop.bytes, 0), by_type: byType };
    },
  };
}
