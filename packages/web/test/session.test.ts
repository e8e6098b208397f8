import type { AuthAnswers } from '@lampyr/contract/auth';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../src/lib/query-client.ts';
import { ACCOUNT_CHANGED_EVENT, signOut, switchAccount } from '../src/lib/session.ts';
import {
  accountDisplayName,
  isAuthenticated,
  resolveSelectedAccount,
  SESSION_KEYS,
  storeSignIn,
} from '../src/lib/session-storage.ts';

const accounts = [
  { id: 1, name: 'Lampyr Demo' },
  { id: 2, name: '', companyName: 'Kadıköy Belediyesi' },
  { id: 3, userDto: { name: 'Ayşe Yılmaz' } },
];

describe('account selection on load', () => {
  it('keeps a stored selection that is still listed', () => {
    window.localStorage.setItem('accounts', JSON.stringify(accounts));
    window.localStorage.setItem('selectedAccount', JSON.stringify({ id: 2 }));
    expect(resolveSelectedAccount()?.id).toBe(2);
  });

  it('selects and saves the first account when the stored one is missing, unlisted or unparsable', () => {
    window.localStorage.setItem('accounts', JSON.stringify(accounts));
    for (const stored of [null, '{"id":99}', '{not json']) {
      if (stored === null) window.localStorage.removeItem('selectedAccount');
      else window.localStorage.setItem('selectedAccount', stored);
      window.sessionStorage.clear();
      expect(resolveSelectedAccount()?.id).toBe(1);
      expect(JSON.parse(window.localStorage.getItem('selectedAccount') ?? '{}').id).toBe(1);
    }
  });

  it('names an account by name, company name, user name, else nothing (the UI says Unnamed Account)', () => {
    expect(accounts.map(accountDisplayName)).toEqual(['Lampyr Demo', 'Kadıköy Belediyesi', 'Ayşe Yılmaz']);
    expect(accountDisplayName({ id: 4 })).toBeUndefined();
  });
});

describe('switching account', () => {
  afterEach(() => vi.useRealTimers());

  it('saves in both storages, clears cached data, broadcasts accountChanged and reloads after 500 ms', () => {
    vi.useFakeTimers();
    queryClient.setQueryData(['query', 'addresses', 'list', {}], { content: [{ id: 1 }], totalElements: 1 });
    const heard = vi.fn();
    window.addEventListener(ACCOUNT_CHANGED_EVENT, heard);
    const reload = vi.fn();
    switchAccount(accounts[1] as (typeof accounts)[number], reload);
    expect(JSON.parse(window.localStorage.getItem('selectedAccount') ?? '{}').id).toBe(2);
    expect(JSON.parse(window.sessionStorage.getItem('selectedAccount') ?? '{}').id).toBe(2);
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
    expect(heard).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(499);
    expect(reload).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(reload).toHaveBeenCalledTimes(1);
    window.removeEventListener(ACCOUNT_CHANGED_EVENT, heard);
  });
});

/** What login answers, as the contract types it. */
const signedIn: AuthAnswers['login'] = {
  token: 't',
  expiresIn: 900,
  user: {
    id: 5,
    title: null,
    firstName: 'Ada',
    lastName: 'Lovelace',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    phoneNumber: null,
    language: null,
    picture: null,
    roleId: 1,
    emailVerified: true,
    isPlatformOperator: false,
  },
  accounts: [
    {
      id: 1,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      accountId: null,
      isSubAccount: false,
      isActive: true,
      isIntegrator: false,
      name: 'Alpha',
      companyName: null,
      email: null,
      phone: null,
      web: null,
      logoImage: null,
      backgroundColor: null,
      backgroundImage: null,
      tariffPerKwh: null,
      currency: null,
      emissionFactor: null,
      timeZone: null,
    },
  ],
};

describe('sign-in and logout', () => {
  it('stores what login answers and removes the session keys from both storages on logout', () => {
    storeSignIn({ token: 't', user: signedIn.user, accounts: signedIn.accounts });
    window.sessionStorage.setItem('isAuthenticated', 'true');
    window.sessionStorage.setItem('authToken', 't');
    window.localStorage.setItem('theme', 'dark');
    expect(isAuthenticated()).toBe(true);
    expect(window.localStorage.getItem('userId')).toBe('5');
    signOut();
    for (const key of SESSION_KEYS) {
      expect(window.localStorage.getItem(key)).toBeNull();
      expect(window.sessionStorage.getItem(key)).toBeNull();
    }
    expect(isAuthenticated()).toBe(false);
    expect(window.localStorage.getItem('theme')).toBe('dark');
  });
});
