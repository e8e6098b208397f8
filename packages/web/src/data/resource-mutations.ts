import type { ResourceDef } from '@lampyr/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { keys } from '../lib/query-keys.ts';
import { createRecord, deleteRecord, type Row, updateRecord } from '../lib/resource-api.ts';

/**
 * Create, update and delete through the command API. Each invalidates exactly what it changes:
 * the resource's lists, lookups and select options (all under its key), and the record itself.
 */
export function useResourceMutations(resource: ResourceDef) {
  const client = useQueryClient();
  const prefix = resource.name;
  const afterChange = async (id?: number) => {
    if (id !== undefined) client.removeQueries({ queryKey: keys.detail(prefix, id) });
    await client.invalidateQueries({ queryKey: keys.resource(prefix) });
  };
  const create = useMutation({
    mutationFn: (body: Record<string, unknown>) => createRecord<Row>(prefix, body),
    onSuccess: (row) => afterChange(row.id),
  });
  const update = useMutation({
    mutationFn: (body: Record<string, unknown> & { id: number }) => updateRecord<Row>(prefix, body),
    onSuccess: (row) => afterChange(row.id),
  });
  const remove = useMutation({
    mutationFn: (id: number) => deleteRecord(prefix, id),
    onSuccess: (_data, id) => afterChange(id),
  });
  return { create, update, remove };
}
