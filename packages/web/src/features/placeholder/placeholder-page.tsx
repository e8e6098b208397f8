import { Button, Card, Result, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

/**
 * A route of SPEC §2 whose entity is not in the catalogue yet: a real screen that says so, and that
 * becomes the generic resource screen as soon as the catalogue gains the entity.
 */
export default function PlaceholderPage({ label, path }: { label: string; path: string }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const action = params.get('action');
  const group = path.split('/')[0];
  return (
    <Card>
      <Result
        status="info"
        title={<h2 style={{ margin: 0, fontSize: 'inherit' }}>{t(label)}</h2>}
        subTitle={
          <>
            <Typography.Paragraph>{t('placeholder.arrivesWithEntity', { screen: t(label) })}</Typography.Paragraph>
            {action && (
              <Typography.Paragraph>
                {t('placeholder.action', { action: t(`menu.${group}.actions.${action}`) })}
              </Typography.Paragraph>
            )}
            <Typography.Text type="secondary" code>
              /{path}
            </Typography.Text>
          </>
        }
        extra={
          <Link to="/">
            <Button type="primary">{t('shell.backHome')}</Button>
          </Link>
        }
      />
    </Card>
  );
}
