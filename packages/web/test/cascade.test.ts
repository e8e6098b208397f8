import { getResource } from '@lampyr/contract';
import { describe, expect, it } from 'vitest';
import { dependentsOf, narrowingOf } from '../src/resources/cascade.ts';

describe('geography selects narrow each other', () => {
  const addresses = getResource('addresses');

  it('offers the states of the chosen country and the cities of the chosen state', () => {
    expect(narrowingOf(addresses, 'stateId', { countryId: 90 })).toEqual({ countryId: 90 });
    expect(narrowingOf(addresses, 'cityId', { countryId: 90, stateId: 34 })).toEqual({ countryId: 90, stateId: 34 });
    expect(narrowingOf(addresses, 'countryId', { stateId: 34, cityId: 7 })).toBeUndefined();
    expect(narrowingOf(addresses, 'cityId', {})).toBeUndefined();
  });

  it('clears what depends on a changed choice, and nothing else', () => {
    expect(dependentsOf(addresses, 'countryId').sort()).toEqual(['cityId', 'stateId']);
    expect(dependentsOf(addresses, 'stateId')).toEqual(['cityId']);
    expect(dependentsOf(addresses, 'cityId')).toEqual([]);
  });

  it('narrows a region form’s city by its state', () => {
    const regions = getResource('regions');
    expect(narrowingOf(regions, 'cityId', { stateId: 34 })).toEqual({ stateId: 34 });
  });
});
