import { ApiOutlined, ThunderboltOutlined, ToolOutlined, WarningFilled } from '@ant-design/icons';
import type { DashboardSummary, LampState } from '@lampyr/contract';
import { Card, Col, Flex, Progress, Row, Statistic, Typography, theme } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LAMP_ICONS, lampColours } from '../assets-devices/lamp-state-tag.tsx';

/** The lamp states the "lamps now" card counts, failed lamps having their own card. */
const SHOWN: LampState[] = ['on', 'dimmed', 'off', 'offline', 'unknown'];

/** Number formats of the user's language (Turkish "1.641,02", "%12"). */
function useFormats() {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  return useMemo(() => {
    const decimal = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
    const whole = new Intl.NumberFormat(language, { maximumFractionDigits: 0 });
    const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 });
    return {
      whole: (n: number) => whole.format(n),
      /** Watts as W below 10 kW, else kW. */
      power: (watts: number) => (watts < 10_000 ? `${whole.format(watts)} W` : `${decimal.format(watts / 1000)} kW`),
      kwh: (n: number) => `${decimal.format(n)} kWh`,
      percent: (share: number) => percent.format(share),
    };
  }, [language]);
}

/**
 * The operator's first look (issue 13): lamps on, dimmed and off now, failed lamps (they stand out,
 * with a way to them on the map), open faults, power now, energy today against its baseline and
 * gateways down.
 */
export function OperatorFigures({ data }: { data: DashboardSummary }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const colours = lampColours(token);
  const format = useFormats();
  const total = Object.values(data.lamps).reduce((a, b) => a + b, 0);
  const { energyKwh, baselineKwh } = data.energyToday;
  const failed = data.lamps.fault;
  const hidden = <Typography.Text type="secondary">{t('dashboardLamps.hidden')}</Typography.Text>;

  return (
    <>
      <Row gutter={[token.margin, token.margin]}>
        <Col xs={24} lg={12}>
          <Card title={t('dashboardLamps.title')} style={{ height: '100%' }}>
            <Flex wrap gap={token.marginLG} data-testid="lamps-now">
              {SHOWN.map((state) => (
                <Statistic
                  key={state}
                  title={
                    <Flex gap={token.marginXXS} align="center">
                      <span style={{ color: colours[state] }}>{LAMP_ICONS[state]}</span>
                      {t(`lampState.${state}`)}
                    </Flex>
                  }
                  value={data.lamps[state]}
                  formatter={(v) => format.whole(Number(v))}
                />
              ))}
            </Flex>
            {total > 0 && (
              <Progress
                aria-label={t('lampState.legend')}
                percent={100}
                showInfo={false}
                success={{ percent: ((data.lamps.on + data.lamps.dimmed) / total) * 100, strokeColor: colours.on }}
                strokeColor={colours.off}
              />
            )}
          </Card>
        </Col>
        <Col xs={12} lg={6}>
          <Card
            style={{
              height: '100%',
              borderColor: failed ? token.colorError : undefined,
              background: failed ? token.colorErrorBg : undefined,
            }}
          >
            <Statistic
              title={
                <Flex gap={token.marginXXS} align="center">
                  <WarningFilled style={{ color: token.colorError }} />
                  {t('dashboardLamps.failedLamps')}
                </Flex>
              }
              value={failed}
              formatter={(v) => format.whole(Number(v))}
              valueStyle={failed ? { color: token.colorError, fontWeight: token.fontWeightStrong } : undefined}
            />
            {failed > 0 && <Link to="/assets-devices/map?state=fault">{t('dashboardLamps.showFailed')}</Link>}
          </Card>
        </Col>
        <Col xs={12} lg={6}>
          <Card style={{ height: '100%' }}>
            <Statistic
              title={
                <Flex gap={token.marginXXS} align="center">
                  <ToolOutlined />
                  {t('dashboardLamps.openFaults')}
                </Flex>
              }
              value={data.openFaults ?? '–'}
              formatter={(v) => (data.openFaults === null ? '–' : format.whole(Number(v)))}
            />
            {data.openFaults === null && hidden}
          </Card>
        </Col>
      </Row>
      <Row gutter={[token.margin, token.margin]}>
        <Col xs={12} lg={8}>
          <Card style={{ height: '100%' }}>
            <Statistic
              title={
                <Flex gap={token.marginXXS} align="center">
                  <ThunderboltOutlined />
                  {t('dashboardLamps.power')}
                </Flex>
              }
              value={data.powerW}
              formatter={(v) => format.power(Number(v))}
            />
          </Card>
        </Col>
        <Col xs={12} lg={8}>
          <Card style={{ height: '100%' }}>
            <Statistic
              title={t('dashboardLamps.energyToday')}
              value={energyKwh ?? '–'}
              formatter={(v) => (energyKwh === null ? '–' : format.kwh(Number(v)))}
            />
            {energyKwh === null ? (
              <Typography.Text type="secondary">{t('dashboardLamps.noEnergy')}</Typography.Text>
            ) : (
              baselineKwh !== null && (
                <Flex vertical>
                  <Typography.Text type="secondary">
                    {t('dashboardLamps.baseline', { value: format.kwh(baselineKwh) })}
                  </Typography.Text>
                  {baselineKwh > 0 && energyKwh <= baselineKwh && (
                    <Typography.Text type="success">
                      {t('dashboardLamps.belowBaseline', {
                        percent: format.percent((baselineKwh - energyKwh) / baselineKwh),
                      })}
                    </Typography.Text>
                  )}
                </Flex>
              )
            )}
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card style={{ height: '100%' }}>
            <Statistic
              title={
                <Flex gap={token.marginXXS} align="center">
                  <ApiOutlined />
                  {t('dashboardLamps.gatewaysDown')}
                </Flex>
              }
              value={data.gatewaysDown ?? '–'}
              formatter={(v) => (data.gatewaysDown === null ? '–' : format.whole(Number(v)))}
              valueStyle={data.gatewaysDown ? { color: token.colorError } : undefined}
              suffix={
                data.gateways !== null && (
                  <Typography.Text type="secondary" style={{ fontSize: token.fontSize }}>
                    {t('dashboardLamps.gatewaysOf', { count: data.gateways })}
                  </Typography.Text>
                )
              }
            />
            {data.gatewaysDown === null && hidden}
          </Card>
        </Col>
      </Row>
    </>
  );
}
