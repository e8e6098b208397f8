import { catalogue } from '@lampyr/contract';
import { eq, getTableColumns, isNotNull, or } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/connect.ts';
import { resourceTables } from '../db/schema/index.ts';
import { type SecretBox, SecretNotOpenedError } from './secret-box.ts';

/** Where sealed secrets live: each catalogue field kept by encryption, as the repository stores it. */
export function sealedColumns(): { resource: string; table: PgTable; columns: Record<string, PgColumn> }[] {
  return catalogue.flatMap((resource) => {
    const names = Object.entries(resource.fields)
      .filter(([, def]) => def.kind === 'secret' && def.secret === 'encrypt')
      .map(([name]) => `${name}Encrypted`);
    const table = resourceTables[resource.name];
    if (!names.length || !table) return [];
    const all = getTableColumns(table) as Record<string, PgColumn>;
    return [{ resource: resource.name, table, columns: Object.fromEntries(names.map((n) => [n, all[n] as PgColumn])) }];
  });
}

export interface RotationResult {
  /** Values re-sealed with the current key, in total and per resource. */
  resealed: number;
  byResource: Record<string, number>;
}

export class RotationError extends Error {}

/**
 * Re-seals every stored secret that the current key did not seal (older keys, `v1` values of the JWT
 * secret) in one transaction: all of them or, when one does not open, none.
 */
export async function rotateSecrets(db: Db, box: SecretBox): Promise<RotationResult> {
  return db.transaction(async (tx) => {
    const result: RotationResult = { resealed: 0, byResource: {} };
    for (const { resource, table, columns } of sealedColumns()) {
      const id = (getTableColumns(table) as Record<string, PgColumn>).id as PgColumn;
      const rows = (await tx
        .select({ id, ...columns })
        .from(table)
        .where(or(...Object.values(columns).map((c) => isNotNull(c))))
        .for('update')) as Record<string, unknown>[];
      for (const row of rows) {
        const changes: Record<string, string> = {};
        for (const name of Object.keys(columns)) {
          const sealed = row[name];
          if (typeof sealed !== 'string' || !box.isStale(sealed)) continue;
          try {
            changes[name] = box.seal(box.open(sealed));
          } catch (error) {
            if (!(error instanceof SecretNotOpenedError)) throw error;
            throw new RotationError(`${resource} ${row.id} ${name}: ${error.message}. Nothing was changed.`);
          }
        }
        const count = Object.keys(changes).length;
        if (!count) continue;
        await tx
          .update(table)
          .set(changes)
          .where(eq(id, row.id as number));
        result.resealed += count;
        result.byResource[resource] = (result.byResource[resource] ?? 0) + count;
      }
    }
    return result;
  });
}
