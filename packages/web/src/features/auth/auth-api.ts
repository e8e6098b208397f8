import { request } from '../../lib/api-client.ts';
import type { SignIn } from '../../lib/session-storage.ts';

/** The auth calls of API.md, all under the command API except `me`. */
export const authApi = {
  login: (body: { email: string; password: string }) =>
    request<SignIn>('command', 'auth/login', { method: 'POST', body }),
  register: (body: {
    firstName: string;
    lastName: string;
    phoneNumber: string;
    title: string;
    email: string;
    password: string;
  }) => request<unknown>('command', 'auth/register', { method: 'POST', body }),
  verifyOtp: (body: { email: string; code: string }) =>
    request<unknown>('command', 'auth/verify-otp', { method: 'POST', body }),
  resendOtp: (body: { email: string }) => request<unknown>('command', 'auth/resend-otp', { method: 'POST', body }),
  forgotPassword: (body: { email: string }) =>
    request<unknown>('command', 'auth/forgot-password', { method: 'POST', body }),
  resetPassword: (body: { email: string; code: string; password: string }) =>
    request<unknown>('command', 'auth/reset-password', { method: 'POST', body }),
  changePassword: (body: { currentPassword: string; newPassword: string }) =>
    request<{ changed: boolean; token: string }>('command', 'auth/change-password', { method: 'POST', body }),
  changeEmail: (body: { newEmail: string; password: string }) =>
    request<{ pendingEmail: string }>('command', 'auth/change-email', { method: 'POST', body }),
  confirmEmail: (body: { code: string }) =>
    request<{ user: Record<string, unknown> }>('command', 'auth/confirm-email', { method: 'POST', body }),
};
