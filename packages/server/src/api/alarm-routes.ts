import { getResource } from '@lampyr/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AlarmCommands } from '../data/alarm-commands.ts';
import { ApiException } from '../errors/api-exception.ts';
import { fieldLabel } from '../i18n/translate.ts';
import type { AppContext } from './context.ts';
import { COMMAND_PREFIX } from './prefixes.ts';
import { authorize } from './resource-routes.ts';

const resource = getResource('alert-logs');
/** Alarms one command may name at most. */
export const MAX_ALARM_IDS = 500;
/** How far ahead an alarm may be shelved. */
export const MAX_SHELVE_DAYS = 30;

const COMMENT_MAX = 4000;

interface Parsed {
  ids: number[];
  comment?: string;
  until?: Date;
}

/**
 * The alarm lifecycle (DEVICES.md "Alarms"): `POST /command/api/alarms/acknowledge` (`ids`, optional
 * `comment`), `…/clear` (`ids`, `comment` required), `…/shelve` (`ids`, `until` — a time in the next
 * 30 days — optional `comment`). Each needs update on alert-logs in the selected account and answers
 * `{updated, skipped: [{id, reason}]}`; ids of other accounts are skipped as `notFound`.
 */
export function registerAlarmRoutes(app: FastifyInstance, ctx: AppContext): void {
  const alarms = ctx.alarms;
  if (!alarms) return;
  const route = (
    action: 'acknowledge' | 'clear' | 'shelve',
    summary: string,
    run: (alarms: AlarmCommands, request: FastifyRequest, body: Parsed) => Promise<unknown>,
  ) =>
    app.post(
      `${COMMAND_PREFIX}/alarms/${action}`,
      { config: { access: 'user' }, schema: { tags: ['alert-logs'], summary } },
      async (request) => {
        authorize(request, resource, 'update');
        const body = parse(request, action);
        return { success: true, data: await run(alarms, request, body) };
      },
    );
  route('acknowledge', 'Acknowledge alarms', (a, request, body) =>
    a.acknowledge(request.actor, body.ids, body.comment),
  );
  route('clear', 'Clear alarms (with a comment)', (a, request, body) =>
    a.clear(request.actor, body.ids, body.comment as string),
  );
  route('shelve', 'Shelve alarms until a time', (a, request, body) =>
    a.shelve(request.actor, body.ids, body.until as Date, body.comment),
  );
}

/** The body's fields, each problem a field message in the caller's language (422). */
function parse(request: FastifyRequest, action: 'acknowledge' | 'clear' | 'shelve'): Parsed {
  const t = request.t;
  const label = (field: string) => fieldLabel(t, resource.name, field);
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiException(
      'VALIDATION',
      undefined,
      {},
      { ids: t('validation.alarmIds', { field: label('ids'), max: MAX_ALARM_IDS }) },
    );
  }
  const raw = body as Record<string, unknown>;
  const fields: Record<string, string> = {};
  for (const key of Object.keys(raw)) {
    if (!['ids', 'comment', ...(action === 'shelve' ? ['until'] : [])].includes(key)) {
      fields[key] = t('validation.unknownField', { field: key });
    }
  }
  const ids = raw.ids;
  const idsOk =
    Array.isArray(ids) &&
    ids.length >= 1 &&
    ids.length <= MAX_ALARM_IDS &&
    ids.every((id) => Number.isSafeInteger(id) && (id as number) > 0);
  if (!idsOk) fields.ids = t('validation.alarmIds', { field: label('ids'), max: MAX_ALARM_IDS });

  let comment: string | undefined;
  if (raw.comment !== undefined && raw.comment !== null) {
    if (typeof raw.comment !== 'string') fields.comment = t('validation.type', { field: label('comment') });
    else if (raw.comment.length > COMMENT_MAX)
      fields.comment = t('validation.maxLength', { field: label('comment'), maxLength: COMMENT_MAX });
    else comment = raw.comment.trim() || undefined;
  }
  if (action === 'clear' && comment === undefined && !fields.comment) {
    fields.comment = t('validation.required', { field: label('comment') });
  }

  let until: Date | undefined;
  if (action === 'shelve') {
    const text = raw.until;
    const parsed =
      typeof text === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(text)
        ? new Date(text)
        : undefined;
    const now = Date.now();
    if (!parsed || Number.isNaN(parsed.getTime())) {
      fields.until = t('validation.datetime', { field: label('until') });
    } else if (parsed.getTime() <= now || parsed.getTime() > now + MAX_SHELVE_DAYS * 86_400_000) {
      fields.until = t('validation.shelveUntil', { field: label('until'), days: MAX_SHELVE_DAYS });
    } else {
      until = parsed;
    }
  }
  if (Object.keys(fields).length) throw new ApiException('VALIDATION', undefined, {}, fields);
  return { ids: ids as number[], comment, until };
}
