import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { Button, buttonClasses } from '@/components/ui/button';
import { MailIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { StatusBadge } from '@/components/ui/status-badge';
import { cardClasses, sectionTitleClasses } from '@/components/ui/surfaces';
import { useVisualConfig } from '@/lib/visual-config';
import { cn } from '@/utils/cn';
import { useThreads } from '../api/get-threads';
import { useOpenThread } from '../api/open-thread';
import { useThreadsT } from '../use-threads-t';
import { sendFailureText } from '../utils/message-errors';
import { MessageForm } from './message-form';

/**
 * On the invoice detail (issue 23, item 7): "Preguntar sobre esta factura" opens a box for the
 * question; once sent, the conversation opens. With a conversation about the invoice, "Ver
 * conversación" leads to it, marked when the organisation's answer is unread.
 */
export function InvoiceQuestion({ invoiceId }: { invoiceId: string }) {
  const t = useThreadsT();
  const titleId = useId();
  const { companyName } = useVisualConfig();
  const threads = useThreads(invoiceId);
  const open = useOpenThread();
  const navigate = useNavigate();
  const [isAsking, setAsking] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const latest = threads.data?.threads[0];
  const hasOpen = threads.data?.threads.some((thread) => thread.status === 'open') ?? false;

  const send = async (message: string): Promise<boolean> => {
    setFailure(null);
    try {
      const answer = await open.mutateAsync({ invoice_id: invoiceId, message });
      void navigate(paths.invoiceThread.href(answer.thread.id));
      return true;
    } catch (error) {
      setFailure(sendFailureText(error, t));
      return false;
    }
  };

  return (
    <section
      aria-labelledby={titleId}
      className={cn(cardClasses, 'space-y-3 p-4 sm:p-5 print:hidden')}
    >
      <h2 id={titleId} className={cn(sectionTitleClasses, 'flex items-center gap-2')}>
        <MailIcon className="size-5 text-primary-ink" />
        {t('invoice.title')}
      </h2>
      {threads.isPending ? (
        <Skeleton className="h-11 w-full rounded-xl" />
      ) : (
        <>
          {threads.isError && (
            <p className="text-sm text-gray-700 dark:text-gray-300">{t('invoice.loadError')}</p>
          )}
          {latest && (
            <div className="space-y-2">
              {hasOpen && (
                <p className="text-sm text-gray-700 dark:text-gray-300">{t('invoice.open')}</p>
              )}
              <Link
                to={paths.invoiceThread.href(latest.id)}
                className={buttonClasses('secondary', 'w-full')}
              >
                {t('invoice.view')}
                {latest.unread && <StatusBadge tone="info">{t('invoice.unread')}</StatusBadge>}
              </Link>
            </div>
          )}
          {!hasOpen &&
            (isAsking ? (
              <MessageForm
                label={t('form.label')}
                submitLabel={t('form.send')}
                hint={t('form.askHint')}
                isPending={open.isPending}
                failure={failure}
                onSend={send}
                onCancel={() => {
                  setAsking(false);
                  setFailure(null);
                }}
                autoFocus
              />
            ) : (
              <>
                <p className="text-sm text-gray-700 dark:text-gray-300">
                  {t('invoice.hint', { company: companyName })}
                </p>
                <Button className="w-full" onClick={() => setAsking(true)}>
                  {t('invoice.ask')}
                </Button>
              </>
            ))}
        </>
      )}
    </section>
  );
}
