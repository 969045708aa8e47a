import { useRouteError } from 'react-router';
import { MainLayout } from '@/components/layouts/main-layout';
import { errorKindOf } from './error-kind';
import { ErrorView } from './error-view';

/** What a route shows when it throws: the matching error screen inside the layout. */
export function MainErrorFallback() {
  const error = useRouteError();
  console.error(error);
  return (
    <MainLayout>
      <ErrorView kind={errorKindOf(error)} />
    </MainLayout>
  );
}
