/**
 * Base URLs of the two APIs and the map's tile server, read at start-up from `/config.json` so one
 * build serves any host.
 */
export interface RuntimeConfig {
  queryUrl: string;
  commandUrl: string;
  mapTileUrl: string;
  mapAttribution: string;
}

const DEFAULTS: RuntimeConfig = {
  queryUrl: '/query/api',
  commandUrl: '/command/api',
  mapTileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  mapAttribution: '© OpenStreetMap contributors',
};

let current: RuntimeConfig = DEFAULTS;

export function runtimeConfig(): RuntimeConfig {
  return current;
}

export function setRuntimeConfig(config: Partial<RuntimeConfig>): void {
  current = { ...current, ...config };
}

/** Loads `/config.json`; without it (a bare dev server) the same-origin defaults stand. */
export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  try {
    const response = await fetchImpl('/config.json', { headers: { Accept: 'application/json' } });
    if (response.ok) {
      const body = (await response.json()) as Partial<RuntimeConfig>;
      setRuntimeConfig({
        ...(typeof body.queryUrl === 'string' ? { queryUrl: trimSlash(body.queryUrl) } : {}),
        ...(typeof body.commandUrl === 'string' ? { commandUrl: trimSlash(body.commandUrl) } : {}),
        ...(typeof body.mapTileUrl === 'string' ? { mapTileUrl: body.mapTileUrl } : {}),
        ...(typeof body.mapAttribution === 'string' ? { mapAttribution: body.mapAttribution } : {}),
      });
    }
  } catch {
    // Keep the defaults: the console still works when served next to the APIs.
  }
  return current;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
