import type { TFunction } from 'i18next';
import { useTranslation } from '@/lib/use-translation';

export type ThreadsT = TFunction<'threads'>;

/** `t` of the `threads` namespace (typed from the Spanish file by types/i18next.d.ts). */
export function useThreadsT(): ThreadsT {
  return useTranslation('threads').t;
}
