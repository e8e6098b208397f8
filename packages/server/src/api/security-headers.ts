import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

export interface SecurityHeaderOptions {
  /** The map's tile server: its host may serve images to the console. */
  map?: { tileUrl: string };
  publicUrl?: string;
}

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * The origin of a tile URL template for `img-src`; a `{s}` subdomain placeholder becomes a wildcard
 * (`https://{s}.tile.example/…` → `https://*.tile.example`).
 */
export function tileSource(tileUrl: string): string | undefined {
  const match = /^(https?:)\/\/([^/?#]+)/i.exec(tileUrl);
  if (!match) return undefined;
  const host = (match[2] as string).replace(/\{s\}/g, '*');
  return /^[\w.*:-]+$/.test(host) ? `${(match[1] as string).toLowerCase()}//${host.toLowerCase()}` : undefined;
}

/**
 * Headers of every answer (console and APIs). The console is self-hosted scripts only; styles allow
 * inline because antd's CSS-in-JS writes <style> elements and Leaflet positions tiles and markers with
 * style attributes. HSTS only when the request came over TLS (a trusted proxy's X-Forwarded-Proto
 * counts) or PUBLIC_URL is https: over plain HTTP it is meaningless and would lock a local setup out.
 */
export async function installSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions): Promise<void> {
  const tiles = options.map ? tileSource(options.map.tileUrl) : undefined;
  const publicOrigin = options.publicUrl ? new URL(options.publicUrl).origin : undefined;
  // Built once: @fastify/helmet 13 builds helmet's middleware again on every request (its CSP
  // directives parsed each time, ~4 % of a list call's CPU in bench:api).
  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', ...(tiles ? [tiles] : [])],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...(publicOrigin ? [publicOrigin] : [])],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    // Cross-origin requests carry the origin only: OpenStreetMap's tile policy asks for a Referer.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: false,
  });
  // Helmet's headers depend on its options alone: taken once from a response that records them, and
  // handed to Fastify with its own on every answer. (Set on the raw response instead, they would send
  // Node's writeHead down its slow path, which sets every other header again one by one.)
  const fixed: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => {
      fixed[name.toLowerCase()] = value;
    },
    removeHeader: (name: string) => {
      delete fixed[name.toLowerCase()];
    },
  };
  headers({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  const withHsts = { ...fixed, 'strict-transport-security': HSTS };
  const alwaysTls = publicOrigin?.startsWith('https:') ?? false;
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(alwaysTls || request.protocol === 'https' ? withHsts : fixed);
    done();
  });
}
