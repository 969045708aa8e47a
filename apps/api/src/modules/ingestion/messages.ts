import type { Language } from '../mail/messages.ts';

/**
 * The invitation e-mail a customer created by the ingestion API receives, in the customer's
 * language. `{company}` is the tenant's company name; `{days}` how long the link lasts.
 */
export const invitationMessages = {
  es: {
    subject: 'Tu acceso a la oficina online de {company}',
    heading: 'Bienvenido a la oficina online',
    intro:
      '{company} te ha dado acceso a su oficina online: allí puedes consultar y descargar tus facturas, pagarlas con tarjeta y mantener tus datos al día.',
    action: 'Para entrar, elige primero tu contraseña.',
    button: 'Elegir mi contraseña',
    expiry:
      'El enlace caduca en {days} días y solo se puede usar una vez. Si caduca, pide otro desde «¿Has olvidado tu contraseña?» en la pantalla de acceso.',
    ignore: 'Si no esperabas este mensaje, puedes ignorarlo.',
    footer: 'Este mensaje se ha enviado automáticamente; no respondas a él.',
  },
  ca: {
    subject: "El teu accés a l'oficina en línia de {company}",
    heading: "Benvingut a l'oficina en línia",
    intro:
      "{company} t'ha donat accés a la seva oficina en línia: hi pots consultar i descarregar les teves factures, pagar-les amb targeta i mantenir les teves dades al dia.",
    action: 'Per entrar, tria primer la teva contrasenya.',
    button: 'Triar la meva contrasenya',
    expiry:
      "L'enllaç caduca en {days} dies i només es pot fer servir una vegada. Si caduca, demana'n un altre des de «Has oblidat la contrasenya?» a la pantalla d'accés.",
    ignore: 'Si no esperaves aquest missatge, el pots ignorar.',
    footer: "Aquest missatge s'ha enviat automàticament; no hi responguis.",
  },
  en: {
    subject: 'Your access to the {company} online office',
    heading: 'Welcome to the online office',
    intro:
      '{company} has given you access to its online office, where you can view and download your invoices, pay them by card and keep your details up to date.',
    action: 'To sign in, first choose your password.',
    button: 'Choose my password',
    expiry:
      'The link expires in {days} days and can be used only once. If it expires, ask for a new one with "Forgot your password?" on the sign-in screen.',
    ignore: 'If you were not expecting this message, you can ignore it.',
    footer: 'This message was sent automatically; please do not reply.',
  },
  eu: {
    subject: '{company}(r)en lineako bulegorako sarbidea',
    heading: 'Ongi etorri lineako bulegora',
    intro:
      '{company}(e)k bere lineako bulegorako sarbidea eman dizu: bertan zure fakturak kontsultatu eta deskargatu, txartelez ordaindu eta zure datuak eguneratuta izan ditzakezu.',
    action: 'Sartzeko, lehenik aukeratu zure pasahitza.',
    button: 'Nire pasahitza aukeratu',
    expiry:
      'Estekak {days} egunetan iraungitzen du, eta behin bakarrik erabil daiteke. Iraungitzen bada, eskatu beste bat sarbide-pantailako «Pasahitza ahaztu duzu?» aukeran.',
    ignore: 'Mezu hau espero ez bazenuen, ez egin kasurik.',
    footer: 'Mezu hau automatikoki bidali da; ez erantzun.',
  },
} satisfies Record<Language, Record<string, string>>;

export type InvitationTexts = (typeof invitationMessages)['es'];

/** The texts of one language with `{company}` and `{days}` filled in. */
export function invitationTexts(
  language: string,
  values: { company: string; days: number },
): InvitationTexts {
  const lang = (language in invitationMessages ? language : 'es') as Language;
  const fill = (s: string) =>
    // Replacers, not strings: a `$` in the operator's company name is text, never a pattern
    // (`Ca$$h` read as `Ca$h`, `$'` pulled the rest of the sentence in: session 39).
    s.replaceAll('{company}', () => values.company).replaceAll('{days}', () => String(values.days));
  const source = invitationMessages[lang];
  return Object.fromEntries(
    Object.entries(source).map(([key, value]) => [key, fill(value)]),
  ) as InvitationTexts;
}
