import type { z } from 'zod';
import { ApiException } from '../errors/api-exception.ts';

/** Parses a request body with a wire schema; the first problem becomes a 400 naming its path. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : 'body';
  throw new ApiException('BAD_REQUEST', 'errors.badValue', { field, reason: issue?.message ?? 'invalid' });
}
