import { useState } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { Button } from '@/components/ui/button';

/**
 * The ten recovery codes, shown once: copy them or download them as a text file, then go on. The
 * screen says they will not be shown again.
 */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation('sessions');
  const [copied, setCopied] = useState(false);
  const text = `${codes.join('\n')}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="space-y-4">
      <p className="text-sm text-gray-700 dark:text-gray-300">{t('twoFactor.codesIntro')}</p>
      <ul
        aria-label={t('twoFactor.codesTitle')}
        className="grid grid-cols-2 gap-2 rounded-xl bg-gray-100 p-4 font-mono text-sm text-gray-900 dark:bg-gray-900 dark:text-gray-100"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" className="flex-1" onClick={() => void copy()}>
          {copied ? t('twoFactor.copied') : t('twoFactor.copy')}
        </Button>
        <Button variant="secondary" className="flex-1" onClick={download}>
          {t('twoFactor.download')}
        </Button>
      </div>
      <p role="status" className="sr-only">
        {copied ? t('twoFactor.copied') : ''}
      </p>
      <Button className="min-h-12 w-full text-base" onClick={onDone}>
        {t('twoFactor.continue')}
      </Button>
    </div>
  );
}
