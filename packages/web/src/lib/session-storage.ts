import type { AuthAnswers } from '@lampyr/contract/auth';

/**
 * The client-side storage keys of SPEC §3. A value may sit in session or local storage; both are
 * read, and sign-out and account switching write both so the two never disagree.
 */
export const STORAGE_KEYS = {
  authToken: 'authToken',
  selectedAccount: 'selectedAccount',
  accounts: 'accounts',
  isAuthenticated: 'isAuthenticated',
  userData: 'userData',
  userId: 'userId',
  theme: 'theme',
} as const;

/** What logout removes (SPEC §4): everything but the theme. */
export const SESSION_KEYS = [
  STORAGE_KEYS.isAuthenticated,
  STORAGE_KEYS.authToken,
  STORAGE_KEYS.userData,
  STORAGE_KEYS.selectedAccount,
  STORAGE_KEYS.accounts,
  STORAGE_KEYS.userId,
] as const;

export interface AccountSummary {
  id: number | string;
  name?: string | null;
  companyName?: string | null;
  userDto?: { name?: string | null } | null;
  isSubAccount?: boolean;
  isIntegrator?: boolean;
  [key: string]: unknown;
}

function stores(): Storage[] {
  const list: Storage[] = [];
  try {
    list.push(window.sessionStorage);
  } catch {
    // storage blocked by the browser
  }
  try {
    list.push(window.localStorage);
  } catch {
    // storage blocked by the browser
  }
  return list;
}

/** Session storage first, then local storage. */
export function readItem(key: string): string | null {
  for (const store of stores()) {
    const value = store.getItem(key);
    if (value !== null) return value;
  }
  return null;
}

export function writeBoth(key: string, value: string): void {
  for (const store of stores()) store.setItem(key, value);
}

export function writeLocal(key: string, value: string): void {
  window.localStorage.setItem(key, value);
}

export function removeBoth(keys: readonly string[]): void {
  for (const store of stores()) for (const key of keys) store.removeItem(key);
}

export function isAuthenticated(): boolean {
  return readItem(STORAGE_KEYS.isAuthenticated) === 'true';
}

export function authToken(): string | null {
  return readItem(STORAGE_KEYS.authToken);
}

/** Replaces the access token (a silent renewal) where it is kept, or in local storage. */
export function saveAuthToken(token: string): void {
  const holders = stores().filter((store) => store.getItem(STORAGE_KEYS.authToken) !== null);
  if (holders.length === 0) writeLocal(STORAGE_KEYS.authToken, token);
  for (const store of holders) store.setItem(STORAGE_KEYS.authToken, token);
}

function parseJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function storedAccounts(): AccountSummary[] {
  const value = parseJson(readItem(STORAGE_KEYS.accounts));
  return Array.isArray(value)
    ? value.filter((a): a is AccountSummary => typeof a === 'object' && a !== null && 'id' in a)
    : [];
}

export function storedUser(): Record<string, unknown> | undefined {
  const value = parseJson(readItem(STORAGE_KEYS.userData));
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

/**
 * The selected account's id. SPEC §3: the selection is stored as a JSON object with `id` or as a
 * bare id string; anything else reads as no selection.
 */
export function selectedAccountId(): string | undefined {
  const raw = readItem(STORAGE_KEYS.selectedAccount);
  if (raw === null || raw.trim() === '') return undefined;
  const parsed = parseJson(raw);
  if (typeof parsed === 'object' && parsed !== null && 'id' in parsed) {
    const id = (parsed as { id: unknown }).id;
    return id === null || id === undefined || id === '' ? undefined : String(id);
  }
  if (typeof parsed === 'number' || typeof parsed === 'string') return String(parsed);
  // Not JSON at all: a bare id such as abc-12.
  return parsed === undefined && !raw.trim().startsWith('{') ? raw.trim() : undefined;
}

/** The name shown for an account (SPEC §3). */
export function accountDisplayName(account: AccountSummary | undefined): string | undefined {
  if (!account) return undefined;
  return account.name || account.companyName || account.userDto?.name || undefined;
}

/**
 * SPEC §4, account selection on load: keep the stored selection when it is still listed,
 * otherwise (missing, unlisted, unparsable) select the first account and save it.
 */
export function resolveSelectedAccount(): AccountSummary | undefined {
  const accounts = storedAccounts();
  const id = selectedAccountId();
  const kept = id === undefined ? undefined : accounts.find((a) => String(a.id) === id);
  if (kept) return kept;
  const first = accounts[0];
  if (first) saveSelectedAccount(first);
  return first;
}

export function saveSelectedAccount(account: AccountSummary): void {
  writeBoth(STORAGE_KEYS.selectedAccount, JSON.stringify(account));
}

/** Stores what login answers (API.md): token, user, user id, accounts; then the flag. */
export function storeSignIn({
  token,
  user,
  accounts,
}: Pick<AuthAnswers['login'], 'token' | 'user' | 'accounts'>): void {
  removeBoth(SESSION_KEYS);
  writeLocal(STORAGE_KEYS.authToken, token);
  writeLocal(STORAGE_KEYS.userData, JSON.stringify(user));
  if (user.id !== undefined) writeLocal(STORAGE_KEYS.userId, String(user.id));
  writeLocal(STORAGE_KEYS.accounts, JSON.stringify(accounts));
  writeLocal(STORAGE_KEYS.isAuthenticated, 'true');
  resolveSelectedAccount();
}
