import { z } from 'zod';
import { ApiException } from '../errors/api-exception.ts';

/**
 * Parses a request body with a wire schema (zod or zod/mini, both of the contract); the first
 * problem becomes a 400 naming its path.
 */
export function parseBody<S extends z.core.$ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = z.safeParse(schema, body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : 'body';
  throw new ApiException('BAD_REQUEST', 'errors.badValue', { field, reason: issue?.message ?? 'invalid' });
}
