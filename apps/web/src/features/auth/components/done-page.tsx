import type { Ref } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { Page } from '@/components/ui/page';
import { cardClasses } from '@/components/ui/surfaces';
import { paths } from '@/config/paths';
import { cn } from '@/utils/cn';
import { SuccessMark } from './auth-icons';

/**
 * What a change made from the profile ends on (password, sign-in e-mail): a mark, the title that
 * takes the focus, what happened, and the way back to the profile.
 */
export function DonePage({
  title,
  titleRef,
  text,
  backLabel,
}: {
  title: string;
  titleRef: Ref<HTMLHeadingElement>;
  text: string;
  backLabel: string;
}) {
  return (
    <Page width="message">
      <div className={cn(cardClasses, 'mt-6 flex flex-col items-center p-6 text-center')}>
        <SuccessMark />
        <h1
          ref={titleRef}
          tabIndex={-1}
          className="mt-4 text-xl font-bold text-gray-900 focus:outline-none dark:text-gray-50"
        >
          {title}
        </h1>
        <p className="mt-2 break-words text-gray-700 dark:text-gray-300">{text}</p>
        <Link
          to={paths.userProfile}
          className={buttonClasses('primary', 'mt-6 min-h-12 w-full text-base')}
        >
          {backLabel}
        </Link>
      </div>
    </Page>
  );
}
