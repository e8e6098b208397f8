/** Base URLs of the two APIs, read at start-up from `/config.json` so one build serves any host. */
export interface RuntimeConfig {
  queryUrl: string;
  commandUrl: string;
}

const DEFAULTS: RuntimeConfig = { queryUrl: '/query/api', commandUrl: '/command/api' };

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
