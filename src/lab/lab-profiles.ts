// The two devices a lab audit loads a page as (docs/lab.md, "How a lab audit measures a page"):
// Lighthouse 12's constants (core/config/constants.js), with its network throttling applied the way
// its `throttlingMethod: 'devtools'` applies it over the Chrome DevTools Protocol.
import { DEFAULT_USER_AGENT } from '../fetch/options.ts';
import type { LabProfileName } from './lab-types.ts';

/** What Lighthouse calls the connection: round trip and throughputs as a network engineer states them. */
interface NominalNetwork {
  rttMs: number;
  downloadKbps: number;
  uploadKbps: number;
}

/** `Network.emulateNetworkConditions`'s parameters: per-request latency, throughputs in bytes per second. */
interface CdpNetworkConditions {
  offline: false;
  latency: number;
  downloadThroughput: number;
  uploadThroughput: number;
}

export interface LabProfile {
  name: LabProfileName;
  /** CSS pixels */
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  isMobile: boolean;
  hasTouch: boolean;
  /** Lighthouse's device string followed by pagegrade's product token */
  userAgent: string;
  /** `Emulation.setCPUThrottlingRate`: 4 is a main thread four times slower */
  cpuSlowdown: number;
  nominal: NominalNetwork;
  network: CdpNetworkConditions;
}

/**
 * pagegrade's product token, `pagegrade/<version>`: the first word of its own user agent (fetch/options.ts),
 * so a site's operator reads the same token in every request pagegrade makes.
 */
export const PAGEGRADE_TOKEN = DEFAULT_USER_AGENT.split(' ')[0];

/** Lighthouse's devtools throttling: the emulated connection is made slower than nominal, as a real one carries overheads. */
const LATENCY_FACTOR = 3.75;
const THROUGHPUT_FACTOR = 0.9;

/** The CDP values for a nominal connection: latency = RTT x 3.75, throughput = floor(kbit/s x 0.9 x 1024 / 8) bytes a second. */
function devtoolsNetwork(nominal: NominalNetwork): CdpNetworkConditions {
  const bytesPerSecond = (kbps: number) => Math.floor((kbps * THROUGHPUT_FACTOR * 1024) / 8);
  return {
    offline: false,
    latency: nominal.rttMs * LATENCY_FACTOR,
    downloadThroughput: bytesPerSecond(nominal.downloadKbps),
    uploadThroughput: bytesPerSecond(nominal.uploadKbps),
  };
}

/** Throttling lifted: what the accessibility run works under, so its own work never counts as the page's. */
export const UNTHROTTLED_NETWORK = { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 } as const;

// Lighthouse 12's "moto g power (2022)" and desktop strings.
const MOBILE_AGENT = 'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Mobile Safari/537.36';
const DESKTOP_AGENT = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Safari/537.36';

// Lighthouse's mobileSlow4G (1.6 Mbit/s = 1,638.4 kbit/s down) and its desktopDense4G (10 Mbit/s each way).
const MOBILE_NETWORK: NominalNetwork = { rttMs: 150, downloadKbps: 1.6 * 1024, uploadKbps: 750 };
const DESKTOP_NETWORK: NominalNetwork = { rttMs: 40, downloadKbps: 10 * 1024, uploadKbps: 10 * 1024 };

export const LAB_PROFILE: Record<LabProfileName, LabProfile> = {
  mobile: {
    name: 'mobile',
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
    userAgent: `${MOBILE_AGENT} ${PAGEGRADE_TOKEN}`,
    cpuSlowdown: 4,
    nominal: MOBILE_NETWORK,
    network: devtoolsNetwork(MOBILE_NETWORK),
  },
  desktop: {
    name: 'desktop',
    viewport: { width: 1350, height: 940 },
    deviceScaleFactor: 1,
    isMobile: false,
    hasTouch: false,
    userAgent: `${DESKTOP_AGENT} ${PAGEGRADE_TOKEN}`,
    cpuSlowdown: 1,
    nominal: DESKTOP_NETWORK,
    network: devtoolsNetwork(DESKTOP_NETWORK),
  },
};
