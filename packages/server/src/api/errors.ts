import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiException } from '../errors/api-exception.ts';
import { fieldLabel, pickLanguage, translator } from '../i18n/translate.ts';

/** Every failure leaves in the envelope of API.md; nothing internal (stack, SQL) is ever sent. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiException, request, reply) => {
    const t = translator(pickLanguage(request.headers['accept-language']));
    if (error instanceof ApiException) {
      const about = error.about;
      const vars = about ? { ...error.vars, field: fieldLabel(t, about.resource, about.field) } : error.vars;
      const message = t(error.messageKey ?? `errors.${error.code}`, vars);
      const fields = about ? { ...error.fields, [about.field]: message } : error.fields;
      return reply.status(error.status).send({
        success: false,
        error: { code: error.code, message, ...(fields ? { fields } : {}) },
      });
    }
    const conflict = constraintConflict(error);
    if (conflict)
      return reply
        .status(409)
        .send({ success: false, error: { code: 'CONFLICT', message: t(conflict.messageKey as string) } });
    const unavailable = databaseUnavailable(error);
    if (unavailable) {
      request.log.warn(`database unavailable: ${(error as Error).message?.split('\n')[0]?.slice(0, 200)}`);
      return reply.status(503).send({
        success: false,
        error: { code: 'UNAVAILABLE', message: t(unavailable.messageKey ?? 'errors.UNAVAILABLE') },
      });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return reply
        .status(429)
        .send({ success: false, error: { code: 'RATE_LIMITED', message: t('errors.RATE_LIMITED') } });
    }
    if (status >= 400 && status < 500) {
      const json = error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError;
      const message = json ? t('errors.malformedJson') : t('errors.BAD_REQUEST');
      const code = status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST';
      return reply.status(status === 404 ? 404 : 400).send({ success: false, error: { code, message } });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ success: false, error: { code: 'INTERNAL', message: t('errors.INTERNAL') } });
  });
}

/**
 * A unique or foreign-key violation the checks before a write could not see (two writers at once,
 * a duplicate DevEUI) as the 409 a client should get.
 */
export function constraintConflict(error: unknown): ApiException | undefined {
  const code = databaseErrorCode(error);
  if (code === '23505') return new ApiException('CONFLICT', 'errors.duplicate');
  if (code === '23503') return new ApiException('CONFLICT', 'errors.CONFLICT');
  return undefined;
}

/**
 * A statement cancelled by its timeout, or a database that cannot be reached right now (a lost or
 * refused connection, no free connection in time, the server shutting down): a 503 the client may
 * retry, with nothing of the statement in it.
 */
export function databaseUnavailable(error: unknown): ApiException | undefined {
  const code = databaseErrorCode(error);
  if (code === '57014') return new ApiException('UNAVAILABLE', 'errors.databaseTimeout');
  // Connection exceptions (08), operator intervention (57P0x), too many connections (53300).
  if (code && (code.startsWith('08') || /^57P0[1-4]$/.test(code) || code === '53300'))
    return new ApiException('UNAVAILABLE');
  for (
    let e = error, depth = 0;
    e && typeof e === 'object' && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { code: nodeCode, message } = e as { code?: unknown; message?: unknown };
    if (
      typeof nodeCode === 'string' &&
      /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN)$/.test(nodeCode)
    )
      return new ApiException('UNAVAILABLE');
    // node-postgres says these in words: a dropped connection, a client no longer usable, no connection in time.
    if (
      typeof message === 'string' &&
      /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect)/.test(
        message,
      )
    )
      return new ApiException('UNAVAILABLE');
  }
  return undefined;
}

/** The SQLSTATE of a database error, also when the ORM wrapped it. */
function databaseErrorCode(error: unknown): string | undefined {
  for (
    let e = error, depth = 0;
    e && typeof e === 'object' && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}
