import { z } from 'zod';

/** `GET /visual-config` (spec §3 "Visual config"), public. */
export const ZVisualConfig = z.object({
  logo_url: z.string().nullable(),
  primary_color: z.string(),
  company_name: z.string(),
  description: z.string(),
  /** External sign-in providers configured for this tenant (PRODUCT.md): only these show a button. */
  sign_in_providers: z.array(z.enum(['google', 'apple', 'microsoft'])),
  /**
   * The tenant pays through the local Redsys simulator: the side menu shows the testing toggle
   * that makes the simulator decline (spec §2 "Side menu").
   */
  testing_mode: z.boolean(),
});
export type TVisualConfig = z.infer<typeof ZVisualConfig>;
