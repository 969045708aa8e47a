import { z } from 'zod';
import { FieldError } from './errors.ts';

/**
 * The paging of the admin lists (webhook events, payment-method requests): newest first, `limit`
 * per page, and `before` = the previous page's `next_cursor` (the id of its last item).
 */
export const pageQueryFields = (items: string, exampleCursor: string) => ({
  limit: z.coerce
    .number(FieldError.invalidType)
    .int(FieldError.invalidFormat)
    .min(1, FieldError.tooSmall)
    .max(100, FieldError.tooBig)
    .default(20)
    .meta({ description: `${items} per page (1-100)`, examples: [50] }),
  before: z
    .uuid(FieldError.invalidFormat)
    .optional()
    .meta({ description: "The previous page's `next_cursor`", examples: [exampleCursor] }),
});
