import type {
  AuthAnswers,
  ChangeEmailBody,
  ChangePasswordBody,
  ConfirmEmailBody,
  EmailOnlyBody,
  LoginBody,
  RegisterBody,
  ResetPasswordBody,
  VerifyOtpBody,
} from '@lampyr/contract/auth';
import { request } from '../../lib/api-client.ts';

const post =
  <B, K extends keyof AuthAnswers>(path: string) =>
  (body: B) =>
    request<AuthAnswers[K]>('command', `auth/${path}`, { method: 'POST', body });

/** The auth calls of API.md, all under the command API except `me`, typed by the contract. */
export const authApi = {
  login: post<LoginBody, 'login'>('login'),
  register: post<RegisterBody, 'register'>('register'),
  verifyOtp: post<VerifyOtpBody, 'verifyOtp'>('verify-otp'),
  resendOtp: post<EmailOnlyBody, 'resendOtp'>('resend-otp'),
  forgotPassword: post<EmailOnlyBody, 'forgotPassword'>('forgot-password'),
  resetPassword: post<ResetPasswordBody, 'resetPassword'>('reset-password'),
  changePassword: post<ChangePasswordBody, 'changePassword'>('change-password'),
  changeEmail: post<ChangeEmailBody, 'changeEmail'>('change-email'),
  confirmEmail: post<ConfirmEmailBody, 'confirmEmail'>('confirm-email'),
};
