import { useId, useRef, useState } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { Link } from 'react-router';
import { Button, buttonClasses } from '@/components/ui/button';
import { ListState } from '@/components/ui/list-state';
import { Page } from '@/components/ui/page';
import { Skeleton } from '@/components/ui/skeleton';
import { cardClasses, pageTitleClasses } from '@/components/ui/surfaces';
import { paths } from '@/config/paths';
import { cn } from '@/utils/cn';
import { type CustomerSession, useEndSessions, useSessions } from '../api/sessions';
import { formatMoment } from '@/lib/dates';
import { deviceName } from '../session-display';
import { DeviceIcon } from './device-icons';

type Outcome = { kind: 'ended'; device: string } | { kind: 'others'; count: number } | null;

/**
 * "Your devices" (issue 24): every place the customer is signed in, this one first and marked,
 * with browser and system, how and when it signed in, its last use and its network (a prefix,
 * never a place). Any other session ends with one button, or all of them with one more; what
 * happened is announced, and the focus stays on the list.
 */
export function DevicesScreen() {
  const { t } = useTranslation('sessions');
  const query = useSessions();
  const end = useEndSessions();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [failed, setFailed] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const sessions = sortCurrentFirst(query.data ?? []);
  const others = sessions.filter((s) => !s.current);

  const run = (which: string, device: string) => {
    setFailed(false);
    setOutcome(null);
    end.mutate(which, {
      onSuccess: (count) => {
        setOutcome(which === 'others' ? { kind: 'others', count } : { kind: 'ended', device });
        headingRef.current?.focus();
      },
      onError: () => setFailed(true),
    });
  };

  return (
    <Page width="form">
      <h1 ref={headingRef} tabIndex={-1} className={cn(pageTitleClasses, 'outline-none')}>
        {t('title')}
      </h1>
      <p className="mt-2 text-gray-700 dark:text-gray-300">{t('intro')}</p>
      <div role="status" aria-live="polite" className="mt-4 empty:hidden">
        {outcome && (
          <p className="rounded-xl border border-green-700/30 bg-green-50 p-3 text-sm text-green-900 dark:border-green-400/30 dark:bg-green-950 dark:text-green-100">
            {outcome.kind === 'ended'
              ? t('ended', { device: outcome.device })
              : t('endedOthers', { count: outcome.count })}
          </p>
        )}
      </div>
      {failed && (
        <p
          role="alert"
          className="mt-4 rounded-xl border border-red-700/30 bg-red-50 p-3 text-sm text-red-900 dark:border-red-400/30 dark:bg-red-950 dark:text-red-100"
        >
          {t('endError')}
        </p>
      )}
      <div className="mt-6">
        <ListState
          query={query}
          isEmpty={sessions.length === 0}
          skeleton={<DevicesSkeleton />}
          empty={{
            icon: (p) => <DeviceIcon {...p} type="" />,
            title: t('emptyTitle'),
            hint: t('emptyHint'),
          }}
          texts={{ loading: t('loading'), loadError: t('loadError'), retry: t('retry') }}
        >
          <ul className="space-y-3">
            {sessions.map((session) => (
              <SessionRow
                key={session.id}
                session={session}
                busy={end.isPending && (end.variables === session.id || end.variables === 'others')}
                disabled={end.isPending}
                onEnd={(device) => run(session.id, device)}
              />
            ))}
          </ul>
          {others.length > 0 ? (
            <Button
              variant="secondary"
              className="mt-4 w-full sm:w-auto"
              disabled={end.isPending}
              onClick={() => run('others', '')}
            >
              {t('endOthers')}
            </Button>
          ) : (
            <p className="mt-4 text-sm text-gray-600 dark:text-gray-300">{t('onlyThis')}</p>
          )}
        </ListState>
      </div>
      <section
        className={cn(cardClasses, 'mt-8 flex flex-col gap-3 p-4 sm:flex-row sm:items-center')}
      >
        <p className="min-w-0 flex-1 text-sm text-gray-700 dark:text-gray-300">{t('notYou')}</p>
        <Link to={paths.changePassword} className={buttonClasses('secondary', 'min-h-11')}>
          {t('changePassword')}
        </Link>
      </section>
    </Page>
  );
}

/** This session first, then the rest as the server ordered them (last used first). */
function sortCurrentFirst(sessions: readonly CustomerSession[]): CustomerSession[] {
  return [...sessions.filter((s) => s.current), ...sessions.filter((s) => !s.current)];
}

function SessionRow({
  session,
  busy,
  disabled,
  onEnd,
}: {
  session: CustomerSession;
  busy: boolean;
  disabled: boolean;
  onEnd: (device: string) => void;
}) {
  const { t } = useTranslation('sessions');
  const titleId = useId();
  const name = deviceName(session, t('unknownDevice'));
  return (
    <li
      aria-labelledby={titleId}
      className={cn(
        cardClasses,
        'flex flex-wrap items-start gap-4 p-4',
        session.current && 'ring-2 ring-primary-ink/40',
      )}
    >
      <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-gray-100 text-gray-700 dark:bg-gray-800 dark:text-gray-200">
        <DeviceIcon type={session.device_type} aria-label={t(`kind.${session.device_type}`)} />
      </span>
      <div className="min-w-0 flex-1">
        <p id={titleId} className="font-semibold break-words text-gray-900 dark:text-gray-50">
          {name}
          {session.current && (
            <span className="ms-2 inline-block rounded-full bg-primary-fill px-2 py-0.5 align-middle text-xs font-semibold text-on-primary">
              {t('thisDevice')}
            </span>
          )}
        </p>
        <div className="mt-1 space-y-0.5 text-sm text-gray-700 dark:text-gray-300">
          <p>{t('lastUsed', { when: formatMoment(session.last_used_at) })}</p>
          <p>
            {t(`method.${session.method}`)} ·{' '}
            {t('signedIn', { when: formatMoment(session.created_at) })}
          </p>
          {session.network && <p>{t('network', { network: session.network })}</p>}
        </div>
      </div>
      {!session.current && (
        <Button
          variant="secondary"
          className="w-full sm:w-auto"
          disabled={disabled}
          aria-label={t('endLabel', { device: name })}
          onClick={() => onEnd(name)}
        >
          {busy ? t('ending') : t('end')}
        </Button>
      )}
    </li>
  );
}

function DevicesSkeleton() {
  return (
    <ul className="space-y-3" aria-hidden="true">
      {[0, 1, 2].map((row) => (
        <li key={row} className={cn(cardClasses, 'flex items-start gap-4 p-4')}>
          <Skeleton className="size-11 rounded-xl" />
          <div className="flex-1 space-y-2">
            <Skeleton className="h-5 w-48 max-w-full" />
            <Skeleton className="h-4 w-40 max-w-full" />
            <Skeleton className="h-4 w-32 max-w-full" />
          </div>
        </li>
      ))}
    </ul>
  );
}
