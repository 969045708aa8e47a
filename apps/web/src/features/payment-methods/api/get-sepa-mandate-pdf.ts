import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { downloadFile } from '@/lib/download-file';
import type { Language } from '@/lib/i18n';

/** A five-minute signed link to the mandate's PDF, in the interface language; never cached. */
export async function getSepaMandatePdfUrl(id: string, language: Language): Promise<string> {
  const { url } = await apiRequest('sepaMandatePdf', { params: { id }, body: { language } });
  return url;
}

/** The download of a mandate's PDF, saved under its reference. */
export function useDownloadSepaMandatePdf(mandate: { id: string; reference: string }) {
  return useMutation({
    mutationFn: (language: Language) => getSepaMandatePdfUrl(mandate.id, language),
    onSuccess: (url) => downloadFile(url, `${mandate.reference.replace(/[^\w.-]/g, '_')}.pdf`),
  });
}
