import { useId, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { Button, buttonClasses } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Checkbox } from '@/components/ui/text-field';
import { useVisualConfig } from '@/lib/visual-config';
import { useRequestMainMethod } from '../api/request-main-method';
import { usePaymentMethodsTexts } from '../texts';
import { limitReached } from '../utils/limit-error';
import type { PaymentMethod } from '../utils/method-display';
import { Notice } from './notice';

type MainMethodFieldProps =
  /** A saved method: the modal files the request. */
  | { method: PaymentMethod; before?: never }
  /** An add screen: nothing to request yet; the modal says when and how. */
  | { method?: never; before: 'save' | 'transfer' };

/**
 * Spec §2/§4 "Main payment method": the checkbox never becomes checked by itself; it opens the
 * modal that explains that the main method is changed by a request the provider's team reviews.
 * On a saved method the modal sends that request, and the method shows it as pending.
 */
export function MainMethodField(props: MainMethodFieldProps) {
  const t = usePaymentMethodsTexts();
  const { companyName } = useVisualConfig();
  const [isOpen, setOpen] = useState(false);
  const request = useRequestMainMethod();
  const noteId = useId();
  const method = props.method;
  const isMain = method?.is_main ?? false;
  const isPending = method?.pending_requests.includes('main_change') === true;
  const limit = limitReached(request.error);

  const open = () => {
    request.reset();
    setOpen(true);
  };
  const send = () => {
    if (!method) return;
    request.mutate(method.id, { onSuccess: () => setOpen(false) });
  };

  return (
    <div>
      <Checkbox
        checked={isMain}
        disabled={isMain || isPending}
        // Never checked here: the change is a request (the modal).
        onChange={open}
        describedBy={isMain || isPending ? noteId : undefined}
        label={t('mainMethod.checkbox')}
      />
      <p
        id={noteId}
        role="status"
        className="ms-8 mt-1 text-sm text-gray-700 empty:hidden dark:text-gray-300"
      >
        {isMain ? t('mainMethod.isMain') : isPending ? t('mainMethod.pending') : ''}
      </p>

      <Dialog open={isOpen} onClose={() => setOpen(false)} title={t('mainMethod.dialog.title')}>
        <p className="text-sm text-gray-700 dark:text-gray-300">
          {t('mainMethod.dialog.text', { company: companyName })}
        </p>
        {props.before === 'save' && (
          <p className="mt-3 text-sm text-gray-700 dark:text-gray-300">
            {t('mainMethod.dialog.afterSave')}
          </p>
        )}
        {props.before === 'transfer' && (
          <p className="mt-3 text-sm text-gray-700 dark:text-gray-300">
            {t('mainMethod.dialog.transfer')}
          </p>
        )}
        {request.isError && (
          <Notice tone="error" className="mt-4">
            {limit ? t(`limits.${limit.key}`, { max: limit.max }) : t('mainMethod.dialog.error')}
          </Notice>
        )}
        <div className="mt-5 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          {method ? (
            <>
              <Button variant="secondary" onClick={() => setOpen(false)}>
                {t('common.cancel')}
              </Button>
              <Button onClick={send} disabled={request.isPending} data-autofocus>
                {request.isPending
                  ? t('mainMethod.dialog.requesting')
                  : t('mainMethod.dialog.request')}
              </Button>
            </>
          ) : (
            <>
              {props.before === 'transfer' && (
                <Link to={paths.contact} className={buttonClasses('secondary')}>
                  {t('mainMethod.dialog.contact')}
                </Link>
              )}
              <Button onClick={() => setOpen(false)} data-autofocus>
                {t('common.understood')}
              </Button>
            </>
          )}
        </div>
      </Dialog>
    </div>
  );
}
