import type { ReportTemplate } from '@lampyr/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ReportToolbar } from '../src/features/reports-analytics/report-toolbar.tsx';
import { TemplateModal } from '../src/features/reports-analytics/template-modal.tsx';
import { setRuntimeConfig } from '../src/lib/runtime-config.ts';
import { type ConsoleI18n, consoleI18n, renderScreen } from './support/console-screen.tsx';

/**
 * One template dialog for saving a report as a template (from a report's toolbar: its filters
 * without the period) and for changing a saved one (its filters and columns kept).
 */
let i18n: ConsoleI18n;

beforeAll(async () => {
  i18n = await consoleI18n();
});

afterEach(() => vi.unstubAllGlobals());

function serve() {
  const sent: { method: string; url: string; body: Record<string, unknown> }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const body = init?.body ? JSON.parse(String(init.body)) : {};
      sent.push({ method: String(init?.method ?? 'GET'), url: String(url), body });
      return new Response(JSON.stringify({ success: true, data: { id: 5, ...body } }));
    }),
  );
  setRuntimeConfig({ queryUrl: '/query/api', commandUrl: '/command/api' });
  return sent;
}

const saved: ReportTemplate = {
  id: 5,
  name: 'Night alarms',
  kind: 'alarms',
  filters: { groupBy: 'device', level: 'high' },
  columns: ['label', 'raised'],
  format: 'csv',
  schedule: 'weekly',
  recipients: 'ops@example.com',
  language: 'en',
  lastPeriod: null,
  lastRunAt: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};

describe('the report template dialog', () => {
  it("saves a report's filters without its period, page or size as a new template", async () => {
    const sent = serve();
    renderScreen(
      <ReportToolbar
        kind="alarms"
        request={{ from: '2026-11-01', to: '2026-11-30', groupBy: 'level', regionId: 4, page: 2, size: 20 }}
      />,
      i18n,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save as template' }));
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'By level' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent.filter((s) => s.method === 'POST')).toHaveLength(1));
    expect(sent.find((s) => s.method === 'POST')).toMatchObject({
      url: '/command/api/report-templates',
      body: {
        name: 'By level',
        kind: 'alarms',
        filters: { groupBy: 'level', regionId: 4 },
        format: 'pdf',
        schedule: 'none',
        recipients: '',
        language: 'en',
      },
    });
  });

  it('changes a saved template, keeping its kind, filters and columns', async () => {
    const sent = serve();
    renderScreen(
      <TemplateModal kind={saved.kind} filters={saved.filters} template={saved} onClose={() => undefined} />,
      i18n,
    );
    expect(screen.getByText('Edit "Night alarms"')).toBeTruthy();
    // Scheduled: the recipients are required.
    fireEvent.change(screen.getByLabelText('E-mail recipients'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A scheduled report needs at least one recipient.')).toBeTruthy();
    expect(sent).toEqual([]);
    fireEvent.change(screen.getByLabelText('E-mail recipients'), { target: { value: 'duty@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    const { name, kind, filters, columns, format, schedule } = saved;
    expect(sent[0]).toMatchObject({
      method: 'PUT',
      url: '/command/api/report-templates/5',
      body: { name, kind, filters, columns, format, schedule, recipients: 'duty@example.com' },
    });
  });
});
