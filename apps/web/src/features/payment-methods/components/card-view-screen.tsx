import { usePaymentMethodsTexts } from '../texts';
import { lastFour, type PaymentMethod } from '../utils/method-display';
import {
  type DetailRow,
  formatCreatedAt,
  MethodActions,
  MethodDetails,
  MethodHeading,
  MethodViewFrame,
} from './method-view';
import { Page } from '@/components/ui/page';
import { AutoPaySection } from './auto-pay-section';

/**
 * Spec §2 "Card view" (/credit-card?id=<method id>): the card's brand, masked number, expiry and
 * holder; its alias can be edited (the rest is the issuing bank's); main-method request; delete.
 */
export function CardViewScreen({ id }: { id: string | null }) {
  return (
    <MethodViewFrame id={id} kind="card">
      {(method) => <CardView method={method} />}
    </MethodViewFrame>
  );
}

function CardView({ method }: { method: PaymentMethod }) {
  const t = usePaymentMethodsTexts();
  const last4 = lastFour(method);
  const rows: DetailRow[] = [];
  if (method.card_brand) rows.push({ label: t('fields.brand'), value: method.card_brand });
  if (last4) {
    rows.push({
      label: t('fields.cardNumber'),
      value: (
        <>
          <span aria-hidden="true">{t('list.cardEnding', { last4 })}</span>
          <span className="sr-only">{t('list.cardEndingLabel', { last4 })}</span>
        </>
      ),
      mono: true,
    });
  }
  if (method.card_expiry)
    rows.push({ label: t('fields.expiry'), value: method.card_expiry, mono: true });
  if (method.holder) rows.push({ label: t('fields.holder'), value: method.holder });
  if (method.alias) rows.push({ label: t('fields.aliasName'), value: method.alias });
  const added = formatCreatedAt(method.created_at);
  if (added) rows.push({ label: t('fields.addedOn'), value: added });

  return (
    <Page width="form" className="space-y-6">
      <MethodHeading method={method} />
      <MethodDetails
        method={method}
        title={t('cardView.details')}
        rows={rows}
        editable={['alias']}
      />
      <AutoPaySection method={method} />
      <MethodActions method={method} />
    </Page>
  );
}
