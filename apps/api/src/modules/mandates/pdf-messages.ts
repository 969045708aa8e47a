import type { TSepaMandateStatus } from '@portal/contract/sepa-mandates';
import type { Language } from '../mail/messages.ts';

/**
 * The SEPA Core mandate's texts in the portal's four languages. The legal text, the title, the
 * payment type and the states are the ones the web app shows when the customer signs
 * (`mandate` in the locales' `payment-methods.json`: pdf-messages.test.ts keeps them equal).
 */
export type MandatePdfMessages = {
  title: string;
  scheme: string;
  reference: string;
  creditor: string;
  creditorName: string;
  creditorId: string;
  address: string;
  debtor: string;
  debtorName: string;
  nif: string;
  iban: string;
  paymentType: string;
  recurrent: string;
  legal: string;
  signature: string;
  signedAt: string;
  signedFrom: string;
  acceptance: string;
  state: string;
  states: Record<TSepaMandateStatus, string>;
  replaces: string;
  replacedBy: string;
  page: string;
};

export const mandatePdfMessages: Record<Language, MandatePdfMessages> = {
  es: {
    title: 'Orden de domiciliación de adeudo directo SEPA',
    scheme: 'Adeudo directo SEPA básico (Core)',
    reference: 'Referencia de la orden de domiciliación',
    creditor: 'Acreedor',
    creditorName: 'Nombre del acreedor',
    creditorId: 'Identificador del acreedor',
    address: 'Dirección',
    debtor: 'Deudor',
    debtorName: 'Nombre del deudor',
    nif: 'NIF',
    iban: 'Número de cuenta (IBAN)',
    paymentType: 'Tipo de pago',
    recurrent: 'Pago recurrente',
    legal:
      'Mediante la firma de esta orden de domiciliación, el deudor autoriza al acreedor a enviar instrucciones a la entidad del deudor para adeudar su cuenta y a la entidad para efectuar los adeudos en su cuenta siguiendo las instrucciones del acreedor. Como parte de sus derechos, el deudor está legitimado al reembolso por su entidad en los términos y condiciones del contrato suscrito con la misma. La solicitud de reembolso deberá efectuarse dentro de las ocho semanas que siguen a la fecha de adeudo en cuenta. Puede obtener información adicional sobre sus derechos en su entidad financiera.',
    signature: 'Firma',
    signedAt: 'Fecha y hora de la firma',
    signedFrom: 'Dirección IP',
    acceptance:
      'Firmada electrónicamente en el portal del cliente: el deudor aceptó expresamente esta orden.',
    state: 'Estado',
    states: { active: 'Activa', replaced: 'Sustituida', revoked: 'Revocada' },
    replaces: 'Sustituye a la orden',
    replacedBy: 'Sustituida por la orden',
    page: 'Página',
  },
  ca: {
    title: 'Ordre de domiciliació de deute directe SEPA',
    scheme: 'Deute directe SEPA bàsic (Core)',
    reference: "Referència de l'ordre de domiciliació",
    creditor: 'Creditor',
    creditorName: 'Nom del creditor',
    creditorId: 'Identificador del creditor',
    address: 'Adreça',
    debtor: 'Deutor',
    debtorName: 'Nom del deutor',
    nif: 'NIF',
    iban: 'Número de compte (IBAN)',
    paymentType: 'Tipus de pagament',
    recurrent: 'Pagament recurrent',
    legal:
      "Mitjançant la signatura d'aquesta ordre de domiciliació, el deutor autoritza el creditor a enviar instruccions a l'entitat del deutor per carregar el seu compte i l'entitat a efectuar els càrrecs al seu compte seguint les instruccions del creditor. Com a part dels seus drets, el deutor té dret al reemborsament per part de la seva entitat en els termes i condicions del contracte subscrit amb aquesta. La sol·licitud de reemborsament s'haurà d'efectuar dins de les vuit setmanes següents a la data de càrrec en compte. Pot obtenir informació addicional sobre els seus drets a la seva entitat financera.",
    signature: 'Signatura',
    signedAt: 'Data i hora de la signatura',
    signedFrom: 'Adreça IP',
    acceptance:
      'Signada electrònicament al portal del client: el deutor va acceptar expressament aquesta ordre.',
    state: 'Estat',
    states: { active: 'Activa', replaced: 'Substituïda', revoked: 'Revocada' },
    replaces: "Substitueix l'ordre",
    replacedBy: "Substituïda per l'ordre",
    page: 'Pàgina',
  },
  en: {
    title: 'SEPA Direct Debit Mandate',
    scheme: 'SEPA Core Direct Debit',
    reference: 'Mandate reference',
    creditor: 'Creditor',
    creditorName: 'Creditor name',
    creditorId: 'Creditor identifier',
    address: 'Address',
    debtor: 'Debtor',
    debtorName: 'Debtor name',
    nif: 'Tax ID',
    iban: 'Account number (IBAN)',
    paymentType: 'Type of payment',
    recurrent: 'Recurrent payment',
    legal:
      "By signing this mandate form, the debtor authorises the creditor to send instructions to the debtor's bank to debit their account, and the bank to debit the account in accordance with the creditor's instructions. As part of their rights, the debtor is entitled to a refund from their bank under the terms and conditions of their agreement with it. A refund must be claimed within eight weeks starting from the date on which the account was debited. Further information about these rights can be obtained from the bank.",
    signature: 'Signature',
    signedAt: 'Date and time of signature',
    signedFrom: 'IP address',
    acceptance:
      'Signed electronically in the customer portal: the debtor expressly accepted this mandate.',
    state: 'Status',
    states: { active: 'Active', replaced: 'Replaced', revoked: 'Revoked' },
    replaces: 'Replaces mandate',
    replacedBy: 'Replaced by mandate',
    page: 'Page',
  },
  eu: {
    title: 'SEPA zordunketa zuzeneko helbideratze-agindua',
    scheme: 'SEPA oinarrizko zordunketa zuzena (Core)',
    reference: 'Helbideratze-aginduaren erreferentzia',
    creditor: 'Hartzekoduna',
    creditorName: 'Hartzekodunaren izena',
    creditorId: 'Hartzekodunaren identifikatzailea',
    address: 'Helbidea',
    debtor: 'Zorduna',
    debtorName: 'Zordunaren izena',
    nif: 'IFZ',
    iban: 'Kontu-zenbakia (IBAN)',
    paymentType: 'Ordainketa mota',
    recurrent: 'Ordainketa errepikakorra',
    legal:
      'Helbideratze-agindu hau sinatuz, zordunak baimena ematen dio hartzekodunari zordunaren entitateari bere kontuan zordunketak egiteko jarraibideak bidaltzeko, eta entitateari bere kontuan zordunketak egiteko hartzekodunaren jarraibideei jarraituz. Bere eskubideen artean, zordunak eskubidea du bere entitateak dirua itzul diezaion, harekin sinatutako kontratuaren baldintzetan. Itzulketa-eskaera kontuan zordundu eta hurrengo zortzi asteetan egin beharko da. Bere eskubideei buruzko informazio gehiago bere finantza-entitatean lor dezake.',
    signature: 'Sinadura',
    signedAt: 'Sinaduraren data eta ordua',
    signedFrom: 'IP helbidea',
    acceptance:
      'Bezeroaren atarian elektronikoki sinatua: zordunak berariaz onartu zuen agindu hau.',
    state: 'Egoera',
    states: { active: 'Aktiboa', replaced: 'Ordeztuta', revoked: 'Baliogabetuta' },
    replaces: 'Ordeztutako agindua',
    replacedBy: 'Agindu honek ordeztuta',
    page: 'Orria',
  },
};
