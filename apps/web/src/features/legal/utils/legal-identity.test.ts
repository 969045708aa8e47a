import { describe, expect, it } from 'vitest';
import { defaultVisualConfig, type VisualConfig } from '@/lib/visual-config';
import { getLegalFacts } from './legal-identity';

const config = (legal: Partial<VisualConfig['legal']>): VisualConfig => ({
  ...defaultVisualConfig,
  companyName: 'Club Náutico',
  legal: { ...defaultVisualConfig.legal, ...legal },
});

describe('getLegalFacts', () => {
  it('uses the tenant row as it is', () => {
    expect(
      getLegalFacts(
        config({
          name: 'Club Náutico S.L.',
          tax_id: 'B12345674',
          address: 'Muelle 1, Valencia',
          contact_email: 'hola@nautico.test',
          privacy_email: 'privacidad@nautico.test',
          dpo_email: 'dpd@nautico.test',
        }),
      ),
    ).toEqual({
      company: 'Club Náutico',
      legalName: 'Club Náutico S.L.',
      taxId: 'B12345674',
      address: 'Muelle 1, Valencia',
      contactEmail: 'hola@nautico.test',
      privacyEmail: 'privacidad@nautico.test',
      dpoEmail: 'dpd@nautico.test',
    });
  });

  it('falls back to the brand and to the one mailbox the tenant has', () => {
    expect(getLegalFacts(config({ contact_email: 'hola@nautico.test' }))).toMatchObject({
      legalName: 'Club Náutico',
      contactEmail: 'hola@nautico.test',
      privacyEmail: 'hola@nautico.test',
      dpoEmail: '',
    });
    expect(getLegalFacts(config({ privacy_email: 'lopd@nautico.test' }))).toMatchObject({
      contactEmail: 'lopd@nautico.test',
      privacyEmail: 'lopd@nautico.test',
    });
  });
});
