import { AddCardScreen } from '@/features/payment-methods/components/add-card-screen';

/** Spec §2 "Add card" (/añadir-tarjeta): the card itself is typed on the gateway's page. */
export function Component() {
  return <AddCardScreen />;
}
