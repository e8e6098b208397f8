import type { ReportKind } from '@lampyr/contract';
import { Alert, Card, Flex, Statistic } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReportOf } from '../../data/reports.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { ScrollTable } from '../../resources/scroll-table.tsx';
import { REPORT_PAGE_SIZE, type ReportPage } from './use-report-page.ts';

type Figure = number | null | undefined;

/**
 * How a report's figures read in the user's language; a figure the server has none of (no tariff,
 * nothing cleared yet) reads "—".
 */
export function useReportFormats() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  const [integer, decimal, percentFormat] = useMemo(
    () => [
      new Intl.NumberFormat(language),
      new Intl.NumberFormat(language, { maximumFractionDigits: 1 }),
      new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 }),
    ],
    [language],
  );
  const or = (v: Figure, format: (v: number) => string) => (v === null || v === undefined ? '—' : format(v));
  return {
    integer,
    decimal,
    count: (v: Figure) => or(v, (n) => integer.format(n)),
    number: (v: Figure) => or(v, (n) => decimal.format(n)),
    /** A per cent figure (0–100). */
    percent: (v: Figure) => or(v, (n) => percentFormat.format(n / 100)),
    /** An amount of money in the account's currency; a plain number where none is set. */
    money: (v: Figure, currency: string | null | undefined) =>
      or(v, (n) =>
        currency ? new Intl.NumberFormat(language, { style: 'currency', currency }).format(n) : decimal.format(n),
      ),
  };
}

/** A column of a report's table holding one figure of each row: right-aligned, written by `render`. */
export const figureColumn = <R,>(dataIndex: keyof R & string, title: string, render: (v: Figure) => string) => ({
  key: dataIndex,
  dataIndex,
  title,
  align: 'right' as const,
  render,
});

export interface ReportFigure {
  key: string;
  title: string;
  value: string | number;
  suffix?: ReactNode;
}

/**
 * A report's headline figures, a card each, side by side and wrapping on a narrow screen (a line of
 * cards each when given several lines); above them, why there are none when the report failed.
 */
export function ReportFigures<K extends ReportKind>({
  state,
  figures,
  testIdPrefix,
}: {
  state: ReportPage<K>;
  figures: ReportFigure[] | ReportFigure[][];
  /** Each card is `data-testid` `<prefix>-<key>`. */
  testIdPrefix?: string;
}) {
  const { t } = useTranslation();
  const { report } = state;
  const lines = (figures.length && Array.isArray(figures[0]) ? figures : [figures]) as ReportFigure[][];
  return (
    <>
      {report.isError && <Alert type="error" showIcon role="alert" title={errorMessage(report.error, t)} />}
      {lines.map((line) => (
        <Flex key={line.map((f) => f.key).join()} wrap gap={16}>
          {line.map(({ key, title, value, suffix }) => (
            <Card
              key={key}
              size="small"
              style={{ flex: '1 1 160px' }}
              data-testid={testIdPrefix ? `${testIdPrefix}-${key}` : undefined}
            >
              <Statistic title={title} value={value} suffix={suffix} loading={report.isPending} />
            </Card>
          ))}
        </Flex>
      ))}
    </>
  );
}

/**
 * What a report shows of its data below the figures (`children`: its chart, its table), or that the
 * period has nothing (`empty`, when `isEmpty`); nothing before the first answer.
 */
export function ReportBody<K extends ReportKind>({
  state,
  isEmpty,
  empty,
  children,
}: {
  state: ReportPage<K>;
  isEmpty: (data: ReportOf<K>) => boolean;
  empty: string;
  children: (data: ReportOf<K>) => ReactNode;
}) {
  const { data } = state;
  if (!data) return null;
  return isEmpty(data) ? <Alert type="info" showIcon title={empty} /> : children(data);
}

/** A report's rows: the page on screen of the server's grouping, paged by the server. */
export function ReportTable<K extends ReportKind, R extends { key: string }>({
  state,
  columns,
  rows,
  total,
  emptyText,
  hideOnSinglePage,
}: {
  state: ReportPage<K>;
  columns: ColumnsType<R>;
  rows: R[];
  total: number;
  emptyText?: ReactNode;
  hideOnSinglePage?: boolean;
}) {
  return (
    <ScrollTable<R>
      rowKey="key"
      size="small"
      scroll={{ x: 'max-content' }}
      loading={state.report.isFetching}
      columns={columns}
      dataSource={rows}
      locale={emptyText === undefined ? undefined : { emptyText }}
      pagination={{
        current: state.page + 1,
        pageSize: REPORT_PAGE_SIZE,
        total,
        showSizeChanger: false,
        hideOnSinglePage,
        onChange: (p) => state.setPage(p - 1),
      }}
    />
  );
}
