import { Card, Col, Row, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { GROUP_ICONS } from '../../app/layout/group-icons.tsx';
import { MENU_GROUPS } from '../../app/menu.ts';
import { accountDisplayName, resolveSelectedAccount, storedUser } from '../../lib/session-storage.ts';

/** Home: who is signed in, in which account, and a way into each menu group. */
export default function HomePage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const user = storedUser();
  const account = resolveSelectedAccount();
  const firstName = typeof user?.firstName === 'string' ? user.firstName : undefined;
  return (
    <>
      <Typography.Title level={2}>
        {firstName ? t('home.welcomeName', { name: firstName }) : t('home.welcome')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        {account
          ? t('home.workingIn', { account: accountDisplayName(account) ?? t('account.unnamed') })
          : t('home.noAccount')}
      </Typography.Paragraph>
      <Row gutter={[token.margin, token.margin]}>
        {MENU_GROUPS.map((group) => {
          const first = group.entries.find((e) => !e.hidden && !e.search);
          return (
            <Col key={group.key} xs={24} sm={12} lg={8} xl={6}>
              <Link to={first ? `/${first.path}` : '/'} style={{ display: 'block' }}>
                <Card hoverable size="small">
                  <Card.Meta
                    avatar={
                      <span style={{ color: token.colorPrimary, fontSize: token.fontSizeHeading3 }}>
                        {GROUP_ICONS[group.key]}
                      </span>
                    }
                    title={t(group.label)}
                    description={t('home.screens', { total: group.entries.filter((e) => !e.hidden).length })}
                  />
                </Card>
              </Link>
            </Col>
          );
        })}
      </Row>
    </>
  );
}
