import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { ChevronRightIcon, MailIcon } from '@/components/ui/icons';
import { StatusBadge } from '@/components/ui/status-badge';
import { cardClasses, interactiveCardClasses } from '@/components/ui/surfaces';
import { cn } from '@/utils/cn';
import { useThreads } from '../api/get-threads';
import { useThreadsT } from '../use-threads-t';

/** On the contact screen: the way to "Mis consultas", with how many have an unread answer. */
export function ThreadsShortcut({ className }: { className?: string }) {
  const t = useThreadsT();
  const threads = useThreads();
  const unread = threads.data?.unread ?? 0;
  return (
    <Link
      to={paths.invoiceThreads}
      className={cn(cardClasses, interactiveCardClasses, 'flex items-center gap-3 p-4', className)}
    >
      <MailIcon className="size-6 shrink-0 text-primary-ink" />
      <span className="min-w-0 flex-1">
        <span className="block font-semibold text-gray-900 dark:text-gray-50">
          {t('shortcut.title')}
        </span>
        <span className="block text-sm text-gray-700 dark:text-gray-300">{t('shortcut.hint')}</span>
      </span>
      {unread > 0 && (
        <StatusBadge tone="info">{t('shortcut.unread', { count: unread })}</StatusBadge>
      )}
      <ChevronRightIcon className="size-5 shrink-0 text-gray-500 dark:text-gray-400" />
    </Link>
  );
}
