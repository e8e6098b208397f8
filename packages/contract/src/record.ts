import type { FieldDef, FieldKind } from './fields.ts';
import type { ResourceDef, ResourceScope } from './resource.ts';

/** The value a field of a kind holds on the wire (dates and times as ISO strings). */
type ValueOf<K extends FieldKind, V extends string> = K extends 'integer' | 'number' | 'reference'
  ? number
  : K extends 'boolean'
    ? boolean
    : K extends 'enum'
      ? V
      : K extends 'json'
        ? unknown
        : string;

type FieldValue<F> = F extends { kind: infer K extends FieldKind; required: infer R; options?: readonly (infer V)[] }
  ? R extends true
    ? ValueOf<K, V extends string ? V : string>
    : ValueOf<K, V extends string ? V : string> | null
  : unknown;

/**
 * A record as the query API returns it, derived from its resource's definition: the system fields,
 * `accountId` for account-scoped resources, and every readable field (secrets never leave the server).
 */
export type RecordOf<D extends Pick<ResourceDef, 'fields' | 'scope'>> = {
  id: number;
  createdAt: string;
  updatedAt: string;
} & (D['scope'] extends 'account' ? { accountId: number } : unknown) & {
    -readonly [K in keyof D['fields'] as D['fields'][K] extends { kind: 'secret' } ? never : K]: FieldValue<
      D['fields'][K]
    >;
  };

/** A definition keeping its fields and scope exact (see `defineResource`). */
export type TypedResource<F extends Record<string, FieldDef>, S extends ResourceScope> = Omit<
  ResourceDef,
  'fields' | 'scope'
> & { fields: F; scope: S };
