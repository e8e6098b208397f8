import { CheckOutlined, KeyOutlined, LogoutOutlined, MailOutlined, UserOutlined } from '@ant-design/icons';
import { CONSTANTS } from '@lampyr/contract';
import { Button, Dropdown, type MenuProps, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ChangeEmailDialog } from '../../features/auth/change-email-dialog.tsx';
import { logout, switchAccount } from '../../lib/session.ts';
import { type AccountSummary, accountDisplayName, storedAccounts } from '../../lib/session-storage.ts';

/**
 * SPEC §2/§4: the accounts with their count, change password, change e-mail and logout. The button names the
 * selected account (name, company name, user name, else "Unnamed Account"), or "Administrator".
 */
export function AccountMenu({ selected }: { selected: AccountSummary | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const accounts = storedAccounts();
  const [changingEmail, setChangingEmail] = useState(false);
  const label = selected ? (accountDisplayName(selected) ?? t('account.unnamed')) : t('account.administrator');

  const items: MenuProps['items'] = [
    {
      type: 'group',
      key: 'accounts',
      label: t('account.accountsCount', { total: accounts.length }),
      children: accounts.map((account) => {
        const isSelected = selected !== undefined && String(account.id) === String(selected.id);
        return {
          key: `account:${String(account.id)}`,
          icon: isSelected ? <CheckOutlined /> : <span aria-hidden style={{ display: 'inline-block', width: 14 }} />,
          label: accountDisplayName(account) ?? t('account.unnamed'),
          disabled: isSelected,
        };
      }),
    },
    { type: 'divider' },
    { key: 'change-password', icon: <KeyOutlined />, label: t('account.changePassword') },
    { key: 'change-email', icon: <MailOutlined />, label: t('account.changeEmail') },
    { key: 'logout', icon: <LogoutOutlined />, label: t('account.logout'), danger: true },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'change-password') navigate('/ChangePasword');
    else if (key === 'change-email') setChangingEmail(true);
    else if (key === 'logout') {
      void logout().then(() => navigate('/login', { replace: true }));
    } else if (key.startsWith('account:')) {
      const account = accounts.find((a) => `account:${String(a.id)}` === key);
      if (account) switchAccount(account);
    }
  };

  return (
    <>
      {changingEmail && <ChangeEmailDialog onClose={() => setChangingEmail(false)} />}
      <Dropdown menu={{ items, onClick }} trigger={['click']}>
        <Button
          type="text"
          icon={<UserOutlined />}
          aria-label={t('account.menu', { name: label })}
          data-testid="account-menu"
        >
          <Typography.Text ellipsis style={{ maxWidth: CONSTANTS.accountLabelMaxWidth }} title={label}>
            {label}
          </Typography.Text>
        </Button>
      </Dropdown>
    </>
  );
}
