import {
  portalContactFields,
  type TKeptPortalChange,
  type TPortalChangedField,
} from '@portal/contract/admin-ingestion';

/**
 * The rule of docs/decisions/035: what a provider's write of a customer does to a field the portal
 * changed (the customer's contact data, an approved fiscal data request) that the provider may not
 * have yet. Pure, so that the rule is tested once, apart from SQL.
 */

/** What the provider sent for one customer: the fields and how it dates them. */
export type ProviderWrite = {
  code: string;
  contact_updated_at?: string | undefined;
  fiscal_updated_at?: string | undefined;
  override_portal_changes: boolean;
} & Partial<Record<TPortalChangedField, string | null>>;

/** A field changed in the portal and not yet taken by the provider, with its current value. */
export type PendingPortalChange = {
  customer_id: string;
  code: string;
  field: TPortalChangedField;
  changed_at: Date;
  value: string | null;
};

export type PortalChangeVerdict = {
  /** Per customer code, the fields to write with the portal's value instead of the batch's. */
  keep: Map<string, Map<TPortalChangedField, string | null>>;
  /** What the answer lists, so that the provider can reconcile. */
  kept: TKeptPortalChange[];
  /** Changes the provider now has (same value) or overwrote: they hold nothing back any more. */
  settled: { customer_id: string; field: TPortalChangedField }[];
};

const contactFields: ReadonlySet<string> = new Set(portalContactFields);

/**
 * For each pending change of a customer in the batch: the provider sending the same value has
 * taken it (settled); a different value overwrites it only when the provider says its data is
 * newer (`contact_updated_at` / `fiscal_updated_at` strictly later than the portal's change) or
 * overrides; otherwise the portal's value is kept and reported.
 */
export function judgePortalChanges(
  writes: readonly ProviderWrite[],
  pending: readonly PendingPortalChange[],
): PortalChangeVerdict {
  const byCode = new Map(writes.map((w) => [w.code, w]));
  const verdict: PortalChangeVerdict = { keep: new Map(), kept: [], settled: [] };
  for (const change of pending) {
    const write = byCode.get(change.code);
    if (!write) continue;
    const sent = write[change.field] ?? '';
    const stamp = contactFields.has(change.field)
      ? write.contact_updated_at
      : write.fiscal_updated_at;
    const isNewer = stamp !== undefined && Date.parse(stamp) > change.changed_at.getTime();
    if (sent === (change.value ?? '') || write.override_portal_changes || isNewer) {
      verdict.settled.push({ customer_id: change.customer_id, field: change.field });
      continue;
    }
    const fields = verdict.keep.get(change.code) ?? new Map<TPortalChangedField, string | null>();
    fields.set(change.field, change.value);
    verdict.keep.set(change.code, fields);
    verdict.kept.push({
      code: change.code,
      field: change.field,
      changed_at: change.changed_at.toISOString(),
    });
  }
  return verdict;
}
