import { describe, expect, it } from 'vitest';
import { loadRuntimeConfig, setRuntimeConfig } from '../src/lib/runtime-config.ts';

const answer = (body: unknown, ok = true) => (async () => ({ ok, json: async () => body })) as unknown as typeof fetch;

describe('runtime config', () => {
  it('takes the API bases and the map tiles from /config.json', async () => {
    const config = await loadRuntimeConfig(
      answer({
        queryUrl: 'https://lampyr.example/query/api/',
        commandUrl: 'https://lampyr.example/command/api',
        mapTileUrl: 'https://tiles.example/{z}/{x}/{y}.png',
        mapAttribution: '© Example',
      }),
    );
    expect(config).toEqual({
      queryUrl: 'https://lampyr.example/query/api',
      commandUrl: 'https://lampyr.example/command/api',
      mapTileUrl: 'https://tiles.example/{z}/{x}/{y}.png',
      mapAttribution: '© Example',
    });
  });

  it('keeps what it has when the file is missing or its values are not text', async () => {
    setRuntimeConfig({ queryUrl: '/query/api', mapTileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' });
    const config = await loadRuntimeConfig(answer({ queryUrl: 42, mapTileUrl: null }));
    expect(config.queryUrl).toBe('/query/api');
    expect(config.mapTileUrl).toBe('https://tile.openstreetmap.org/{z}/{x}/{y}.png');
    expect((await loadRuntimeConfig(answer({}, false))).queryUrl).toBe('/query/api');
  });
});
