import { ErrorView } from '@/components/errors/error-view';

export function GeneralErrorRoute() {
  return <ErrorView kind="general" />;
}

export function NotFoundRoute() {
  return <ErrorView kind="notFound" />;
}

export function AccessDeniedRoute() {
  return <ErrorView kind="accessDenied" />;
}
