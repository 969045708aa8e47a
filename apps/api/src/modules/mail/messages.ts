/** Texts of the e-mails the server sends, in the four languages of the portal. */
import type { TLanguage } from '@portal/contract/languages';

export type Language = TLanguage;

export const mailMessages = {
  es: {
    resetSubject: 'Restablece tu contraseña',
    resetHeading: 'Restablecer la contraseña',
    resetIntro:
      'Hemos recibido una solicitud para restablecer la contraseña de tu cuenta en la oficina online.',
    resetButton: 'Elegir una contraseña nueva',
    resetExpiry: 'El enlace caduca en 60 minutos y solo se puede usar una vez.',
    resetIgnore: 'Si no lo has pedido tú, ignora este mensaje: tu contraseña no cambiará.',
    changedSubject: 'Tu contraseña ha cambiado',
    changedHeading: 'Contraseña cambiada',
    changedIntro:
      'La contraseña de tu cuenta en la oficina online se cambió el {when} (hora de Madrid). Hemos cerrado la sesión en tus otros dispositivos.',
    changedIfNotYou:
      'Si no has sido tú, elige una contraseña nueva ahora: alguien podría conocer la tuya.',
    changedButton: 'Restablecer la contraseña',
    footer: 'Este mensaje se ha enviado automáticamente; no respondas a él.',
  },
  ca: {
    resetSubject: 'Restableix la teva contrasenya',
    resetHeading: 'Restablir la contrasenya',
    resetIntro:
      "Hem rebut una sol·licitud per restablir la contrasenya del teu compte a l'oficina en línia.",
    resetButton: 'Triar una contrasenya nova',
    resetExpiry: "L'enllaç caduca en 60 minuts i només es pot fer servir una vegada.",
    resetIgnore:
      'Si no ho has demanat tu, ignora aquest missatge: la teva contrasenya no canviarà.',
    changedSubject: "La teva contrasenya s'ha canviat",
    changedHeading: 'Contrasenya canviada',
    changedIntro:
      "La contrasenya del teu compte a l'oficina en línia es va canviar el {when} (hora de Madrid). Hem tancat la sessió als teus altres dispositius.",
    changedIfNotYou:
      'Si no has estat tu, tria una contrasenya nova ara: algú podria conèixer la teva.',
    changedButton: 'Restablir la contrasenya',
    footer: "Aquest missatge s'ha enviat automàticament; no hi responguis.",
  },
  en: {
    resetSubject: 'Reset your password',
    resetHeading: 'Reset your password',
    resetIntro: 'We received a request to reset the password of your online office account.',
    resetButton: 'Choose a new password',
    resetExpiry: 'The link expires in 60 minutes and can be used only once.',
    resetIgnore: 'If you did not ask for this, ignore this message: your password will not change.',
    changedSubject: 'Your password was changed',
    changedHeading: 'Password changed',
    changedIntro:
      'The password of your online office account was changed on {when} (Madrid time). You have been signed out on your other devices.',
    changedIfNotYou: 'If this was not you, choose a new password now: someone may know yours.',
    changedButton: 'Reset the password',
    footer: 'This message was sent automatically; please do not reply.',
  },
  eu: {
    resetSubject: 'Berrezarri zure pasahitza',
    resetHeading: 'Pasahitza berrezarri',
    resetIntro: 'Lineako bulegoko zure kontuaren pasahitza berrezartzeko eskaera bat jaso dugu.',
    resetButton: 'Pasahitz berria aukeratu',
    resetExpiry: 'Estekak 60 minututan iraungitzen du, eta behin bakarrik erabil daiteke.',
    resetIgnore: 'Zuk eskatu ez baduzu, ez egin kasurik mezu honi: zure pasahitza ez da aldatuko.',
    changedSubject: 'Zure pasahitza aldatu da',
    changedHeading: 'Pasahitza aldatu da',
    changedIntro:
      'Lineako bulegoko zure kontuaren pasahitza aldatu da: {when} (Madrilgo ordua). Saioa itxi dugu zure beste gailuetan.',
    changedIfNotYou:
      'Zu izan ez bazara, aukeratu pasahitz berri bat orain: norbaitek zurea jakin dezake.',
    changedButton: 'Pasahitza berrezarri',
    footer: 'Mezu hau automatikoki bidali da; ez erantzun.',
  },
} satisfies Record<Language, Record<string, string>>;
