/**
 * The sign-in API's wire (`{COMMAND_URL}/auth/...`, `GET {QUERY_URL}/auth/me`): request bodies the
 * server parses and the console's forms validate with, and the answers' `data`. Written with
 * zod/mini so the sign-in screen can carry these rules at a few KB.
 */
import * as z from 'zod/mini';
import type { accounts } from './catalogue/system.ts';
import type { RecordOf } from './record.ts';

const email = z.email();
const code = z.string().check(z.regex(/^\d{6}$/));
const name = z.string().check(z.trim(), z.minLength(1), z.maxLength(100));
/** A password being chosen. */
const newPassword = z.string().check(z.minLength(8), z.maxLength(200));
/** A password being presented. */
const password = z.string().check(z.minLength(1), z.maxLength(200));

export const loginSchema = z.object({ email, password });
export const registerSchema = z.object({
  firstName: name,
  lastName: name,
  phoneNumber: z.string().check(z.trim(), z.minLength(1), z.maxLength(32)),
  title: name,
  email: z.email().check(z.maxLength(255)),
  password: newPassword,
});
export const verifyOtpSchema = z.object({ email, code });
export const emailOnlySchema = z.object({ email });
export const resetPasswordSchema = z.object({ email, code, password: newPassword });
export const changePasswordSchema = z.object({ currentPassword: password, newPassword });
/** A user's own change of address: the code goes to the new address, the password proves the person. */
export const changeEmailSchema = z.object({ newEmail: z.email().check(z.maxLength(254)), password });
export const confirmEmailSchema = z.object({ code });

export type LoginBody = z.infer<typeof loginSchema>;
export type RegisterBody = z.infer<typeof registerSchema>;
export type VerifyOtpBody = z.infer<typeof verifyOtpSchema>;
export type EmailOnlyBody = z.infer<typeof emailOnlySchema>;
export type ResetPasswordBody = z.infer<typeof resetPasswordSchema>;
export type ChangePasswordBody = z.infer<typeof changePasswordSchema>;
export type ChangeEmailBody = z.infer<typeof changeEmailSchema>;
export type ConfirmEmailBody = z.infer<typeof confirmEmailSchema>;

/** What a client sees of a user: never the hash, never a code. */
export interface UserDto {
  id: number;
  title: string | null;
  firstName: string;
  lastName: string;
  name: string;
  email: string;
  phoneNumber: string | null;
  language: string | null;
  picture: string | null;
  roleId: number;
  emailVerified: boolean;
  isPlatformOperator: boolean;
}

/** An account the user may act in, as the accounts resource returns it. */
export type AccountRecord = RecordOf<typeof accounts>;

/** A new access token: its lifetime in seconds (the refresh credential travels in a cookie). */
export interface TokenData {
  token: string;
  expiresIn: number;
}

/** The `data` of each auth answer. */
export interface AuthAnswers {
  login: TokenData & { user: UserDto; accounts: AccountRecord[] };
  register: { email: string; verificationRequired: true };
  resendOtp: { email: string };
  verifyOtp: { email: string; verified: true };
  refresh: TokenData;
  logout: { loggedOut: true };
  forgotPassword: { email: string };
  resetPassword: { email: string };
  changePassword: TokenData & { changed: true };
  changeEmail: { pendingEmail: string };
  confirmEmail: { user: UserDto };
  me: {
    user: UserDto;
    accounts: AccountRecord[];
    /**
     * What the server accepts from this user in the account the call named (`X-Account-Id`):
     * resource name → the actions allowed. Without an account only shared reference data counts.
     */
    permissions: ResourcePermissions;
  };
}

export type PermissionAction = 'read' | 'create' | 'update' | 'delete';
/** Resource name → the actions the server accepts (the console hides or disables the others). */
export type ResourcePermissions = Record<string, PermissionAction[]>;
