import { describe, expect, it } from 'vitest';
import {
  judgePortalChanges,
  type PendingPortalChange,
  type ProviderWrite,
} from './portal-changes.ts';

const changedAt = new Date('2026-11-20T18:00:00.000Z');
const pending = (
  field: PendingPortalChange['field'],
  value: string | null,
): PendingPortalChange => ({
  customer_id: 'c-1',
  code: 'C-1',
  field,
  changed_at: changedAt,
  value,
});
const write = (w: Partial<ProviderWrite>): ProviderWrite => ({
  code: 'C-1',
  override_portal_changes: false,
  ...w,
});

describe('judgePortalChanges (docs/decisions/035)', () => {
  it('keeps the portal value against an undated or older write, and reports it', () => {
    for (const stamp of [undefined, '2026-11-20T17:59:59Z', '2026-11-20T18:00:00Z']) {
      const v = judgePortalChanges(
        [write({ phone: '600', contact_updated_at: stamp })],
        [pending('phone', '611')],
      );
      expect(v.keep.get('C-1')?.get('phone')).toBe('611');
      expect(v.kept).toEqual([
        { code: 'C-1', field: 'phone', changed_at: '2026-11-20T18:00:00.000Z' },
      ]);
      expect(v.settled).toEqual([]);
    }
  });

  it('applies a later-dated write, an override, and the same value (settling each)', () => {
    for (const w of [
      write({ phone: '600', contact_updated_at: '2026-11-20T18:00:01Z' }),
      write({ phone: '600', contact_updated_at: '2026-11-20T19:00:01+01:00' }),
      write({ phone: '600', override_portal_changes: true }),
      write({ phone: '611' }),
    ]) {
      const v = judgePortalChanges([w], [pending('phone', '611')]);
      expect(v.kept).toEqual([]);
      expect(v.keep.size).toBe(0);
      expect(v.settled).toEqual([{ customer_id: 'c-1', field: 'phone' }]);
    }
  });

  it('compares instants, not texts: 19:00 at +01:00 is the change itself, not later', () => {
    const v = judgePortalChanges(
      [write({ phone: '600', contact_updated_at: '2026-11-20T19:00:00+01:00' })],
      [pending('phone', '611')],
    );
    expect(v.kept).toHaveLength(1);
  });

  it('dates contact fields by contact_updated_at and fiscal ones by fiscal_updated_at', () => {
    const v = judgePortalChanges(
      [write({ phone: '600', nif: 'B1', contact_updated_at: '2026-12-01T00:00:00Z' })],
      [pending('phone', '611'), pending('nif', 'B2')],
    );
    expect(v.kept.map((k) => k.field)).toEqual(['nif']);
    expect(v.settled).toEqual([{ customer_id: 'c-1', field: 'phone' }]);
  });

  it('treats an empty and a missing value alike, and ignores customers not in the batch', () => {
    const v = judgePortalChanges(
      [write({ invoice_email: '' })],
      [pending('invoice_email', null), { ...pending('phone', '611'), code: 'C-2' }],
    );
    expect(v.kept).toEqual([]);
    expect(v.settled).toEqual([{ customer_id: 'c-1', field: 'invoice_email' }]);
  });
});
