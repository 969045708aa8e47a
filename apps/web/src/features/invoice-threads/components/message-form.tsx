import { threadMessageMaxLength } from '@portal/contract';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { FormAlert, TextArea } from '@/components/ui/text-field';
import { useThreadsT } from '../use-threads-t';
import { checkMessage, messageErrorText } from '../utils/message-errors';

/**
 * The one text box of a conversation (the first question and every reply): checked with the
 * contract's schema before sending, the count shown while typing, what is typed kept when sending
 * fails. Text only (no attachments, said beside the box).
 */
export function MessageForm({
  label,
  submitLabel,
  hint,
  isPending,
  failure,
  onSend,
  onCancel,
  autoFocus,
}: {
  label: string;
  submitLabel: string;
  hint?: string;
  isPending: boolean;
  /** Why the last send failed, already worded. */
  failure: string | null;
  /** Resolves true when the message was taken (the box is then emptied). */
  onSend: (text: string) => Promise<boolean>;
  onCancel?: () => void;
  autoFocus?: boolean;
}) {
  const t = useThreadsT();
  const id = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const length = text.trim().length;
  // Opened on purpose ("Preguntar sobre esta factura"): the box takes the focus.
  useEffect(() => {
    if (autoFocus) document.getElementById(id)?.focus();
  }, [autoFocus, id]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isPending) return;
    const problem = checkMessage(text);
    if (problem) {
      setError(messageErrorText(problem, t));
      document.getElementById(id)?.focus();
      return;
    }
    setError(undefined);
    if (await onSend(text)) setText('');
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-3">
      {hint && <p className="text-sm text-gray-700 dark:text-gray-300">{hint}</p>}
      {failure && <FormAlert>{failure}</FormAlert>}
      <TextArea
        id={id}
        label={label}
        rows={4}
        required
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          if (error) setError(undefined);
        }}
        error={
          error ?? (length > threadMessageMaxLength ? messageErrorText('too_long', t) : undefined)
        }
        hint={t('form.textOnly')}
        count={{
          text: t('form.characters', { count: length, max: threadMessageMaxLength }),
          isOver: length > threadMessageMaxLength,
        }}
      />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {onCancel && (
          <Button variant="secondary" onClick={onCancel} disabled={isPending}>
            {t('form.cancel')}
          </Button>
        )}
        <Button type="submit" disabled={isPending}>
          {isPending && <Spinner size="sm" tone="current" />}
          {isPending ? t('form.sending') : submitLabel}
        </Button>
      </div>
    </form>
  );
}
