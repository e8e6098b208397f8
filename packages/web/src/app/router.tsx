import { lazy, type ReactNode, Suspense } from 'react';
import { type RouteObject, useRoutes } from 'react-router';
import { PageLoading } from './page-loading.tsx';
import { RequireAuth } from './require-auth.tsx';

// Every screen is its own chunk: /login needs none of the shell's code.
const LoginPage = lazy(() => import('../features/auth/login-page.tsx'));
const RegisterPage = lazy(() => import('../features/auth/register-page.tsx'));
const VerifyOtpPage = lazy(() => import('../features/auth/verify-otp-page.tsx'));
const ChangePasswordPage = lazy(() => import('../features/auth/change-password-page.tsx'));
const StandaloneChangePassword = lazy(() => import('../features/auth/standalone-change-password.tsx'));
const ShellLayout = lazy(() => import('./layout/shell-layout.tsx'));
const HomePage = lazy(() => import('../features/home/home-page.tsx'));
// Which screen a path shows depends on the menu and the catalogue, which stay out of the sign-in bundle:
// every other path under the layout is matched by the route screen (app/menu.ts), else not found.
const RouteScreen = lazy(() => import('./route-screen.tsx'));
const TopologyPage = lazy(() => import('../features/assets-devices/topology-page.tsx'));

function page(node: ReactNode, fullScreen = false) {
  return <Suspense fallback={<PageLoading fullScreen={fullScreen} />}>{node}</Suspense>;
}

export const routes: RouteObject[] = [
  { path: '/login', element: page(<LoginPage />, true) },
  { path: '/register', element: page(<RegisterPage />, true) },
  { path: '/verifyotp', element: page(<VerifyOtpPage />, true) },
  { path: '/changepassword', element: <RequireAuth>{page(<StandaloneChangePassword />, true)}</RequireAuth> },
  {
    path: '/',
    element: <RequireAuth>{page(<ShellLayout />, true)}</RequireAuth>,
    children: [
      { index: true, element: page(<HomePage />) },
      { path: 'ChangePasword', element: page(<ChangePasswordPage />) },
      { path: 'device-topology/:id', element: page(<TopologyPage />) },
      { path: '*', element: page(<RouteScreen />) },
    ],
  },
];

/** Declarative routing: the data router's loaders and actions would only add weight to /login. */
export function AppRoutes() {
  return useRoutes(routes);
}
