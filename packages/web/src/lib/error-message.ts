import type { TFunction } from 'i18next';
import { ApiRequestError, HttpError } from './api-errors.ts';

/**
 * What to tell a person about a failed call: the server's own message (already in their
 * language) when it sent one, else a sentence for the failure class.
 */
export function errorMessage(error: unknown, t: TFunction): string {
  if (error instanceof HttpError) {
    const body = error.body as { error?: { message?: unknown } } | undefined;
    const message = body?.error?.message;
    if (typeof message === 'string' && message.trim() !== '') return message;
    return t('apiErrors.http', { status: error.httpStatus });
  }
  if (error instanceof ApiRequestError) {
    switch (error.status) {
      case 'FETCH_ERROR':
        return t('apiErrors.FETCH_ERROR');
      case 'TIMEOUT_ERROR':
        return t('apiErrors.TIMEOUT_ERROR');
      case 'PARSING_ERROR':
        return t('apiErrors.PARSING_ERROR');
      case 'CUSTOM_ERROR':
        return t('apiErrors.EMPTY_RESPONSE');
    }
  }
  return t('apiErrors.unknown');
}
