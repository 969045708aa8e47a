import { customerLimits } from '@portal/contract/customer-limits';
import { type KeyboardEvent, useId, useRef } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { CardIcon } from '@/components/ui/icons';
import { cardClasses, sectionTitleClasses } from '@/components/ui/surfaces';
import { cn } from '@/utils/cn';
import type {
  CardSource,
  CheckinForm,
  PaymentMethod,
  ResolvedCheckinForm,
  SavedCard,
} from '../utils/checkin-form';
import { PhoneIcon, SecureIcon, WalletIcon } from './checkout-icons';

type FieldsProps = {
  form: ResolvedCheckinForm;
  onChange: (patch: Partial<CheckinForm>) => void;
  disabled: boolean;
};

const tile =
  'flex min-h-18 items-center gap-3 rounded-xl p-3 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-primary-ink';
/** A chosen tile has a thick ring; a disabled one (while starting) is dimmed, in both themes. */
const activeTile =
  'cursor-pointer bg-white ring-1 ring-gray-300 hover:ring-primary-ink has-[:checked]:ring-2 has-[:checked]:ring-primary-ink has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60 has-[:disabled]:hover:ring-gray-300 dark:bg-gray-800 dark:ring-gray-600 dark:has-[:checked]:bg-gray-700/60';
/** Native controls drawn for the theme (review #25: in dark, on and off must differ). */
const control =
  'size-5 shrink-0 accent-primary-ink [color-scheme:light] focus-visible:outline-none disabled:cursor-not-allowed dark:[color-scheme:dark]';
export const checkboxClasses =
  'mt-0.5 size-5 shrink-0 cursor-pointer accent-primary-ink [color-scheme:light] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink disabled:cursor-not-allowed dark:[color-scheme:dark]';

const methodIcons: Record<PaymentMethod, typeof CardIcon> = {
  credit_card: CardIcon,
  paypal: WalletIcon,
  bizum: PhoneIcon,
};

/** The name of each method and, under it, what paying with it means. */
const methodLabels = {
  credit_card: { name: 'checkin.method.creditCard', hint: 'checkin.method.creditCardHint' },
  bizum: { name: 'checkin.method.bizum', hint: 'checkin.method.bizumHint' },
  paypal: { name: 'checkin.method.paypal', hint: null },
} as const;

/**
 * Spec §2 "Payment confirmation": choose the method, among those the tenant takes (the server's
 * checkout preview): the card, Bizum and PayPal only where the tenant configures them (PRODUCT.md
 * "Screens"). The first one is chosen when the screen opens. PayPal not configured is said in
 * words under the choices (issue 23), never shown as an option that does nothing.
 */
export function MethodFields({
  form,
  onChange,
  disabled,
  availableMethods,
}: FieldsProps & { availableMethods: readonly PaymentMethod[] }) {
  const { t } = useTranslation('checkout');
  const id = useId();
  return (
    <section aria-labelledby={id} className={cn(cardClasses, 'p-4 sm:p-5')}>
      <h2 id={id} className={sectionTitleClasses}>
        {t('checkin.method.title')}
      </h2>
      {availableMethods.length === 0 ? (
        <p className="mt-3 text-sm text-gray-700 dark:text-gray-300">
          {t('errors.details.unavailable')}
        </p>
      ) : (
        <div
          role="radiogroup"
          aria-labelledby={id}
          className={cn('mt-3 grid gap-3', availableMethods.length > 1 && 'sm:grid-cols-2')}
        >
          {availableMethods.map((method) => {
            const Icon = methodIcons[method];
            const { name, hint } = methodLabels[method];
            return (
              <label key={method} className={cn(tile, activeTile)}>
                <input
                  type="radio"
                  name="method"
                  value={method}
                  checked={form.method === method}
                  onChange={() => onChange({ method })}
                  disabled={disabled}
                  className={control}
                />
                <Icon className="size-6 shrink-0 text-primary-ink" />
                <span className="min-w-0">
                  <span className="block font-semibold text-gray-900 dark:text-gray-50">
                    {t(name)}
                  </span>
                  {hint && (
                    <span className="block text-sm text-gray-600 dark:text-gray-300">
                      {t(hint)}
                    </span>
                  )}
                </span>
              </label>
            );
          })}
        </div>
      )}
      {availableMethods.length > 0 && !availableMethods.includes('paypal') && (
        <p className="mt-3 text-sm text-gray-600 dark:text-gray-300">
          {t('checkin.method.paypalUnavailable')}
        </p>
      )}
    </section>
  );
}

/**
 * The card: a new one (typed on the gateway's page; "save this card" asks Redsys to keep it) or,
 * when the customer has saved cards, a tab to choose one of them (spec §2).
 */
export function CardFields({
  form,
  onChange,
  disabled,
  savedCards,
  canSaveCard,
}: FieldsProps & { savedCards: readonly SavedCard[]; canSaveCard: boolean }) {
  const { t } = useTranslation('checkout');
  const id = useId();
  if (savedCards.length === 0) {
    return (
      <section aria-labelledby={`${id}-title`} className={cn(cardClasses, 'p-4 sm:p-5')}>
        <h2 id={`${id}-title`} className={sectionTitleClasses}>
          {t('checkin.card.title')}
        </h2>
        <NewCardPanel
          form={form}
          onChange={onChange}
          disabled={disabled}
          canSaveCard={canSaveCard}
        />
      </section>
    );
  }
  return (
    <section aria-labelledby={`${id}-title`} className={cn(cardClasses, 'p-4 sm:p-5')}>
      <h2 id={`${id}-title`} className={sectionTitleClasses}>
        {t('checkin.card.title')}
      </h2>
      <CardTabs
        idPrefix={id}
        active={form.cardSource}
        onSelect={(cardSource) => onChange({ cardSource })}
      />
      <div
        role="tabpanel"
        id={`${id}-panel`}
        aria-labelledby={`${id}-tab-${form.cardSource}`}
        tabIndex={0}
        className="rounded-lg focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-primary-ink"
      >
        {form.cardSource === 'new' ? (
          <NewCardPanel
            form={form}
            onChange={onChange}
            disabled={disabled}
            canSaveCard={canSaveCard}
          />
        ) : (
          <SavedCardsPanel
            form={form}
            onChange={onChange}
            disabled={disabled}
            savedCards={savedCards}
          />
        )}
      </div>
    </section>
  );
}

const sources: readonly CardSource[] = ['new', 'saved'];

/** WAI-ARIA tabs: arrows, Home and End move between the two; one tab stop. */
function CardTabs({
  idPrefix,
  active,
  onSelect,
}: {
  idPrefix: string;
  active: CardSource;
  onSelect: (source: CardSource) => void;
}) {
  const { t } = useTranslation('checkout');
  const refs = useRef<Partial<Record<CardSource, HTMLButtonElement | null>>>({});
  const onKeyDown = (event: KeyboardEvent) => {
    const index = sources.indexOf(active);
    const next =
      event.key === 'ArrowRight'
        ? sources[(index + 1) % sources.length]
        : event.key === 'ArrowLeft'
          ? sources[(index + sources.length - 1) % sources.length]
          : event.key === 'Home'
            ? sources[0]
            : event.key === 'End'
              ? sources[sources.length - 1]
              : undefined;
    if (!next) return;
    event.preventDefault();
    onSelect(next);
    refs.current[next]?.focus();
  };
  return (
    <div
      role="tablist"
      aria-label={t('checkin.card.tabs')}
      onKeyDown={onKeyDown}
      className="mt-3 mb-4 grid grid-cols-2 gap-1 rounded-xl bg-gray-100 p-1 dark:bg-gray-900"
    >
      {sources.map((source) => (
        <button
          key={source}
          ref={(element) => {
            refs.current[source] = element;
          }}
          type="button"
          role="tab"
          id={`${idPrefix}-tab-${source}`}
          aria-selected={active === source}
          aria-controls={`${idPrefix}-panel`}
          tabIndex={active === source ? 0 : -1}
          onClick={() => onSelect(source)}
          className={cn(
            'min-h-11 rounded-lg px-3 text-sm font-semibold focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-primary-ink',
            active === source
              ? 'bg-white text-gray-900 shadow-sm dark:bg-gray-700 dark:text-gray-50'
              : 'text-gray-700 hover:bg-white/60 dark:text-gray-300 dark:hover:bg-gray-800',
          )}
        >
          {source === 'new' ? t('checkin.card.newCard') : t('checkin.card.savedCards')}
        </button>
      ))}
    </div>
  );
}

/** At the cap of saved methods, "save this card" stays off and says why (the server saves none). */
function NewCardPanel({
  form,
  onChange,
  disabled,
  canSaveCard,
}: FieldsProps & { canSaveCard: boolean }) {
  const { t } = useTranslation('checkout');
  const hintId = useId();
  return (
    <div className="mt-3 space-y-4">
      <p className="flex gap-3 rounded-xl bg-gray-50 p-3 text-sm text-gray-700 dark:bg-gray-900/60 dark:text-gray-300">
        <SecureIcon className="size-5 shrink-0 text-primary-ink" />
        {t('checkin.card.newCardInfo')}
      </p>
      <label
        className={cn(
          'flex items-start gap-3',
          canSaveCard ? 'cursor-pointer' : 'cursor-not-allowed',
        )}
      >
        <input
          type="checkbox"
          checked={form.saveNewCard}
          // Touching the new card's panel chooses the new card: saved cards that arrive later
          // no longer take its place (they did, paying with the main card unsaved: session 39).
          onChange={(event) => onChange({ saveNewCard: event.target.checked, cardSource: 'new' })}
          disabled={disabled || !canSaveCard}
          aria-describedby={hintId}
          className={checkboxClasses}
        />
        <span>
          <span className="block font-medium text-gray-900 dark:text-gray-50">
            {t('checkin.card.saveCard')}
          </span>
          <span id={hintId} className="block text-sm text-gray-600 dark:text-gray-300">
            {canSaveCard
              ? t('checkin.card.saveCardHint')
              : t('checkin.card.saveCardFull', { max: customerLimits.paymentMethods })}
          </span>
        </span>
      </label>
    </div>
  );
}

function SavedCardsPanel({
  form,
  onChange,
  disabled,
  savedCards,
}: FieldsProps & { savedCards: readonly SavedCard[] }) {
  const { t } = useTranslation('checkout');
  return (
    <fieldset className="min-w-0">
      <legend className="mb-3 text-sm font-medium text-gray-700 dark:text-gray-300">
        {t('checkin.card.chooseSavedCard')}
      </legend>
      <div className="grid gap-2">
        {savedCards.map((card) => (
          <label key={card.id} className={cn(tile, activeTile, 'min-h-14')}>
            <input
              type="radio"
              name="saved-card"
              value={card.id}
              checked={form.savedCardId === card.id}
              onChange={() => onChange({ savedCardId: card.id })}
              disabled={disabled}
              className={control}
            />
            <CardIcon className="size-6 shrink-0 text-gray-600 dark:text-gray-300" />
            <span className="min-w-0 flex-1 font-medium text-gray-900 dark:text-gray-50">
              {t('checkin.card.savedCard', { name: card.name, last4: card.last4 })}
            </span>
            {card.isMain && (
              <span className="rounded-full bg-gray-100 px-2 py-0.5 text-xs font-semibold text-gray-800 dark:bg-gray-700 dark:text-gray-100">
                {t('checkin.card.main')}
              </span>
            )}
            <span className="text-xs font-semibold text-gray-600 uppercase dark:text-gray-300">
              {card.type}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Bizum chosen: what happens on the gateway's page (the mobile number, then the bank's app). */
export function BizumFields() {
  const { t } = useTranslation('checkout');
  const id = useId();
  return (
    <section aria-labelledby={id} className={cn(cardClasses, 'p-4 sm:p-5')}>
      <h2 id={id} className={sectionTitleClasses}>
        {t('checkin.bizum.title')}
      </h2>
      <p className="mt-3 flex gap-3 rounded-xl bg-gray-50 p-3 text-sm text-gray-700 dark:bg-gray-900/60 dark:text-gray-300">
        <PhoneIcon className="size-5 shrink-0 text-primary-ink" />
        {t('checkin.bizum.text')}
      </p>
    </section>
  );
}
