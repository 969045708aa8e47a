import { useMutation } from '@tanstack/react-query';
import { apiRequest, type ApiResponse } from '@/lib/api-client';
import type { ContactValues } from '../utils/contact-form';

/** Spec §2 "Contact": stored, e-mailed to the organisation's mailbox with a copy to the customer. */
export function sendContactMessage(values: ContactValues): Promise<ApiResponse<'contact'>> {
  return apiRequest('contact', {
    body: {
      name: values.name,
      company: values.company,
      subject: values.subject,
      message: values.message,
      acceptPrivacy: true,
    },
  });
}

export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}
