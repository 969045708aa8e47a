import { useState } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { changeLanguage, getLanguage, type Language, languageNames, languages } from '@/lib/i18n';
import { cn } from '@/utils/cn';

type LanguageDialogProps = { open: boolean; onClose: () => void };

/** Spec §2: the four languages in their own names as radio options, applied by Accept. */
export function LanguageDialog({ open, onClose }: LanguageDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} title={t('languageDialog.title')}>
      {/* Mounted per opening, so the choice always starts at the current language. */}
      {open && <LanguageForm onDone={onClose} />}
    </Dialog>
  );
}

function LanguageForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const [selected, setSelected] = useState<Language>(getLanguage);
  const [isSaving, setSaving] = useState(false);

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        setSaving(true);
        void changeLanguage(selected).finally(() => {
          setSaving(false);
          onDone();
        });
      }}
    >
      <fieldset>
        <legend className="sr-only">{t('languageDialog.title')}</legend>
        <div className="space-y-2">
          {languages.map((language) => (
            <label
              key={language}
              lang={language}
              className={cn(
                'flex cursor-pointer items-center gap-3 rounded-xl border px-3 py-2.5 text-sm font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-primary-ink',
                selected === language
                  ? 'border-primary-ink bg-primary-50 text-gray-900 dark:bg-gray-700 dark:text-gray-50'
                  : 'border-gray-300 hover:bg-gray-50 dark:border-gray-600 dark:hover:bg-gray-700',
              )}
            >
              <input
                type="radio"
                name="language"
                value={language}
                checked={selected === language}
                onChange={() => setSelected(language)}
                data-autofocus={selected === language ? '' : undefined}
                className="size-4 accent-primary-ink focus-visible:outline-none"
              />
              {languageNames[language]}
            </label>
          ))}
        </div>
      </fieldset>
      <Button type="submit" className="mt-5 w-full" disabled={isSaving}>
        {t('languageDialog.accept')}
      </Button>
    </form>
  );
}
