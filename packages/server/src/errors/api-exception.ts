import { ERROR_STATUS, type ErrorCode } from '@lampyr/contract';

/**
 * An error a client should see. `message` is a translation key of the `common` namespace
 * (`errors.CONFLICT`), or omitted for the code's own text; `fields` are already translated.
 */
export class ApiException extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly messageKey?: string,
    readonly vars: Record<string, string | number> = {},
    readonly fields?: Record<string, string>,
    /** A field the message names: its label (in the request's language) goes in `{{field}}` and in `fields`. */
    readonly about?: { resource: string; field: string },
  ) {
    super(messageKey ?? code);
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const invalidField = (field: string) => new ApiException('INVALID_FIELD', 'errors.INVALID_FIELD', { field });
export const badValue = (field: string, reason: string) =>
  new ApiException('BAD_REQUEST', 'errors.badValue', { field, reason });
export const notFound = () => new ApiException('NOT_FOUND');
