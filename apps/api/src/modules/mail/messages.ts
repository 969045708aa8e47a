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
    newDeviceSubject: 'Nuevo inicio de sesión en tu cuenta',
    newDeviceHeading: '¿Has sido tú?',
    newDeviceIntro:
      'Alguien ha entrado en tu cuenta de la oficina online desde un dispositivo que no habías usado antes, el {when} (hora de Madrid): {device}, red {network}.',
    newDeviceIfYou: 'Si has sido tú, no tienes que hacer nada.',
    newDeviceIfNotYou:
      'Si no has sido tú, cierra esa sesión con el botón y después cambia tu contraseña.',
    newDeviceButton: 'No he sido yo: cerrar esa sesión',
    newDeviceUnknown: 'un navegador desconocido',
    signInLinkSubject: 'Tu enlace para entrar',
    signInLinkHeading: 'Entrar en la oficina online',
    signInLinkIntro:
      'Has pedido un enlace para entrar en tu cuenta de la oficina online sin contraseña.',
    signInLinkButton: 'Entrar en mi cuenta',
    signInLinkExpiry: 'El enlace caduca en {minutes} minutos y solo se puede usar una vez.',
    signInLinkIgnore: 'Si no lo has pedido tú, ignora este mensaje: nadie entrará sin este enlace.',
    emailChangeSubject: 'Confirma tu nuevo correo de acceso',
    emailChangeHeading: 'Confirma tu nuevo correo',
    emailChangeIntro:
      'Has pedido entrar en la oficina online con esta dirección en lugar de {old}. Confírmalo con el botón.',
    emailChangeButton: 'Confirmar este correo',
    emailChangeExpiry: 'El enlace caduca en {hours} horas y solo se puede usar una vez.',
    emailChangeIgnore: 'Si no lo has pedido tú, ignora este mensaje: nada cambiará.',
    emailNoticeSubject: 'Se ha pedido cambiar tu correo de acceso',
    emailNoticeHeading: 'Cambio de correo de acceso',
    emailNoticeIntro:
      'El {when} (hora de Madrid) se pidió que tu cuenta de la oficina online use {new} para entrar. El cambio se hará cuando se confirme desde esa dirección.',
    emailNoticeIfNotYou:
      'Si no has sido tú, cierra en «Tus dispositivos» las sesiones que no reconozcas (el cambio se anula) o cambia tu contraseña ahora, y avisa a la organización: alguien podría estar usando tu cuenta.',
    passkeyAddedSubject: 'Se ha añadido una llave de acceso a tu cuenta',
    passkeyAddedHeading: 'Nueva llave de acceso',
    passkeyAddedIntro:
      'El {when} (hora de Madrid) se añadió a tu cuenta de la oficina online la llave de acceso «{name}». Con ella se puede entrar sin contraseña.',
    secondFactorOnSubject: 'Se ha activado la verificación en dos pasos',
    secondFactorOnHeading: 'Verificación en dos pasos activada',
    secondFactorOnIntro:
      'El {when} (hora de Madrid) se activó la verificación en dos pasos en tu cuenta de la oficina online: al entrar se pedirá también un código de una aplicación.',
    securityIfNotYou:
      'Si no has sido tú, restablece tu contraseña con el botón (se quitarán todas las llaves de acceso y se cerrarán todas las sesiones) y avisa a la organización: alguien podría estar usando tu cuenta.',
    secondFactorIfNotYou:
      'Si no has sido tú, restablece tu contraseña con el botón en las próximas {hours} horas: se desactivará esta verificación, se quitarán todas las llaves de acceso y se cerrarán todas las sesiones. Avisa también a la organización: alguien podría estar usando tu cuenta.',
    secondFactorResetSubject: 'Se ha desactivado la verificación en dos pasos',
    secondFactorResetHeading: 'Verificación en dos pasos desactivada',
    secondFactorResetIntro:
      'Al restablecer tu contraseña el {when} (hora de Madrid) se desactivó la verificación en dos pasos de tu cuenta, que se había activado el {since}, hace menos de {hours} horas: podría haberla activado otra persona con tu contraseña.',
    secondFactorResetIfYou: 'Si la activaste tú, vuelve a activarla con el botón.',
    secondFactorResetButton: 'Activar la verificación en dos pasos',
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
    newDeviceSubject: 'Nou inici de sessió al teu compte',
    newDeviceHeading: 'Has estat tu?',
    newDeviceIntro:
      "Algú ha entrat al teu compte de l'oficina en línia des d'un dispositiu que no havies fet servir abans, el {when} (hora de Madrid): {device}, xarxa {network}.",
    newDeviceIfYou: 'Si has estat tu, no cal que facis res.',
    newDeviceIfNotYou:
      'Si no has estat tu, tanca aquesta sessió amb el botó i després canvia la teva contrasenya.',
    newDeviceButton: 'No he estat jo: tancar aquesta sessió',
    newDeviceUnknown: 'un navegador desconegut',
    signInLinkSubject: 'El teu enllaç per entrar',
    signInLinkHeading: "Entrar a l'oficina en línia",
    signInLinkIntro:
      "Has demanat un enllaç per entrar al teu compte de l'oficina en línia sense contrasenya.",
    signInLinkButton: 'Entrar al meu compte',
    signInLinkExpiry: "L'enllaç caduca en {minutes} minuts i només es pot fer servir una vegada.",
    signInLinkIgnore:
      'Si no ho has demanat tu, ignora aquest missatge: ningú no entrarà sense aquest enllaç.',
    emailChangeSubject: "Confirma el teu nou correu d'accés",
    emailChangeHeading: 'Confirma el teu nou correu',
    emailChangeIntro:
      "Has demanat entrar a l'oficina en línia amb aquesta adreça en lloc de {old}. Confirma-ho amb el botó.",
    emailChangeButton: 'Confirma aquest correu',
    emailChangeExpiry:
      "L'enllaç caduca d'aquí a {hours} hores i només es pot fer servir una vegada.",
    emailChangeIgnore: 'Si no ho has demanat tu, ignora aquest missatge: no canviarà res.',
    emailNoticeSubject: "S'ha demanat canviar el teu correu d'accés",
    emailNoticeHeading: "Canvi de correu d'accés",
    emailNoticeIntro:
      "El {when} (hora de Madrid) es va demanar que el teu compte de l'oficina en línia faci servir {new} per entrar. El canvi es farà quan es confirmi des d'aquella adreça.",
    emailNoticeIfNotYou:
      "Si no has estat tu, tanca a «Els teus dispositius» les sessions que no reconeguis (el canvi s'anul·la) o canvia la contrasenya ara, i avisa l'organització: algú podria estar fent servir el teu compte.",
    passkeyAddedSubject: "S'ha afegit una clau d'accés al teu compte",
    passkeyAddedHeading: "Nova clau d'accés",
    passkeyAddedIntro:
      "El {when} (hora de Madrid) es va afegir al teu compte de l'oficina en línia la clau d'accés «{name}». Amb ella es pot entrar sense contrasenya.",
    secondFactorOnSubject: "S'ha activat la verificació en dos passos",
    secondFactorOnHeading: 'Verificació en dos passos activada',
    secondFactorOnIntro:
      "El {when} (hora de Madrid) es va activar la verificació en dos passos al teu compte de l'oficina en línia: en entrar també es demanarà un codi d'una aplicació.",
    securityIfNotYou:
      "Si no has estat tu, restableix la contrasenya amb el botó (es trauran totes les claus d'accés i es tancaran totes les sessions) i avisa l'organització: algú podria estar fent servir el teu compte.",
    secondFactorIfNotYou:
      "Si no has estat tu, restableix la contrasenya amb el botó en les properes {hours} hores: es desactivarà aquesta verificació, es trauran totes les claus d'accés i es tancaran totes les sessions. Avisa també l'organització: algú podria estar fent servir el teu compte.",
    secondFactorResetSubject: "S'ha desactivat la verificació en dos passos",
    secondFactorResetHeading: 'Verificació en dos passos desactivada',
    secondFactorResetIntro:
      "En restablir la contrasenya el {when} (hora de Madrid) es va desactivar la verificació en dos passos del teu compte, que s'havia activat el {since}, fa menys de {hours} hores: podria haver-la activat una altra persona amb la teva contrasenya.",
    secondFactorResetIfYou: 'Si la vas activar tu, torna-la a activar amb el botó.',
    secondFactorResetButton: 'Activar la verificació en dos passos',
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
    newDeviceSubject: 'New sign-in to your account',
    newDeviceHeading: 'Was this you?',
    newDeviceIntro:
      'Someone signed in to your online office account from a device you had not used before, on {when} (Madrid time): {device}, network {network}.',
    newDeviceIfYou: 'If this was you, there is nothing to do.',
    newDeviceIfNotYou:
      'If this was not you, end that session with the button, then change your password.',
    newDeviceButton: 'It was not me: end that session',
    newDeviceUnknown: 'an unknown browser',
    signInLinkSubject: 'Your sign-in link',
    signInLinkHeading: 'Sign in to the online office',
    signInLinkIntro:
      'You asked for a link to sign in to your online office account without a password.',
    signInLinkButton: 'Sign in to my account',
    signInLinkExpiry: 'The link expires in {minutes} minutes and can be used only once.',
    signInLinkIgnore:
      'If you did not ask for this, ignore this message: nobody signs in without this link.',
    emailChangeSubject: 'Confirm your new sign-in email',
    emailChangeHeading: 'Confirm your new email',
    emailChangeIntro:
      'You asked to sign in to the online office with this address instead of {old}. Confirm it with the button.',
    emailChangeButton: 'Confirm this email',
    emailChangeExpiry: 'The link expires in {hours} hours and works only once.',
    emailChangeIgnore: 'If you did not ask for this, ignore this message: nothing will change.',
    emailNoticeSubject: 'A change of your sign-in email was requested',
    emailNoticeHeading: 'Change of sign-in email',
    emailNoticeIntro:
      'On {when} (Madrid time) it was requested that your online office account use {new} to sign in. The change happens once it is confirmed from that address.',
    emailNoticeIfNotYou:
      'If it was not you, end the sessions you do not recognise in “Your devices” (that cancels the change) or change your password now, and tell the organisation: someone may be using your account.',
    passkeyAddedSubject: 'A passkey was added to your account',
    passkeyAddedHeading: 'New passkey',
    passkeyAddedIntro:
      'On {when} (Madrid time) the passkey “{name}” was added to your online office account. It can sign in without a password.',
    secondFactorOnSubject: 'Two-step verification was turned on',
    secondFactorOnHeading: 'Two-step verification on',
    secondFactorOnIntro:
      'On {when} (Madrid time) two-step verification was turned on for your online office account: signing in will also ask for a code from an app.',
    securityIfNotYou:
      'If this was not you, reset your password with the button (every passkey is removed and every session ends) and tell the organisation: someone may be using your account.',
    secondFactorIfNotYou:
      'If this was not you, reset your password with the button within the next {hours} hours: this verification is turned off, every passkey is removed and every session ends. Tell the organisation too: someone may be using your account.',
    secondFactorResetSubject: 'Two-step verification was turned off',
    secondFactorResetHeading: 'Two-step verification off',
    secondFactorResetIntro:
      'Resetting your password on {when} (Madrid time) turned off the two-step verification of your account, which had been turned on on {since}, less than {hours} hours before: someone else may have turned it on with your password.',
    secondFactorResetIfYou: 'If it was you who turned it on, turn it on again with the button.',
    secondFactorResetButton: 'Turn on two-step verification',
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
    newDeviceSubject: 'Saio-hasiera berria zure kontuan',
    newDeviceHeading: 'Zu izan zara?',
    newDeviceIntro:
      'Norbait lineako bulegoko zure kontuan sartu da aurretik erabili ez zenuen gailu batetik: {when} (Madrilgo ordua), {device}, {network} sarea.',
    newDeviceIfYou: 'Zu izan bazara, ez duzu ezer egin behar.',
    newDeviceIfNotYou:
      'Zu izan ez bazara, itxi saio hori botoiarekin eta aldatu zure pasahitza gero.',
    newDeviceButton: 'Ez naiz ni izan: itxi saio hori',
    newDeviceUnknown: 'nabigatzaile ezezagun bat',
    signInLinkSubject: 'Sartzeko zure esteka',
    signInLinkHeading: 'Lineako bulegoan sartu',
    signInLinkIntro:
      'Lineako bulegoko zure kontuan pasahitzik gabe sartzeko esteka bat eskatu duzu.',
    signInLinkButton: 'Nire kontuan sartu',
    signInLinkExpiry:
      'Estekak {minutes} minututan iraungitzen du, eta behin bakarrik erabil daiteke.',
    signInLinkIgnore:
      'Zuk eskatu ez baduzu, ez egin kasurik mezu honi: inor ez da sartuko esteka hau gabe.',
    emailChangeSubject: 'Berretsi sartzeko helbide elektroniko berria',
    emailChangeHeading: 'Berretsi helbide berria',
    emailChangeIntro:
      'Lineako bulegoan helbide honekin sartzea eskatu duzu, {old} helbidearen ordez. Berretsi botoiarekin.',
    emailChangeButton: 'Berretsi helbide hau',
    emailChangeExpiry: 'Esteka {hours} ordu barru iraungiko da, eta behin bakarrik erabil daiteke.',
    emailChangeIgnore: 'Zuk eskatu ez baduzu, ez egin kasurik mezu honi: ez da ezer aldatuko.',
    emailNoticeSubject: 'Sartzeko helbide elektronikoa aldatzeko eskaera',
    emailNoticeHeading: 'Sartzeko helbidearen aldaketa',
    emailNoticeIntro:
      '{when} (Madrilgo ordua) zure lineako bulegoko kontuak {new} helbidea erabiltzeko eskatu zen sartzeko. Aldaketa helbide horretatik berresten denean egingo da.',
    emailNoticeIfNotYou:
      'Zu izan ez bazara, itxi «Zure gailuak» atalean ezagutzen ez dituzun saioak (aldaketa bertan behera geratzen da) edo aldatu pasahitza orain, eta jakinarazi erakundeari: norbait zure kontua erabiltzen ari izan daiteke.',
    passkeyAddedSubject: 'Sarbide-gako bat gehitu da zure kontuan',
    passkeyAddedHeading: 'Sarbide-gako berria',
    passkeyAddedIntro:
      '{when} (Madrilgo ordua) «{name}» sarbide-gakoa gehitu zen zure lineako bulegoko kontuan. Harekin pasahitzik gabe sar daiteke.',
    secondFactorOnSubject: 'Bi urratseko egiaztapena aktibatu da',
    secondFactorOnHeading: 'Bi urratseko egiaztapena aktibatuta',
    secondFactorOnIntro:
      '{when} (Madrilgo ordua) bi urratseko egiaztapena aktibatu zen zure lineako bulegoko kontuan: sartzean aplikazio bateko kode bat ere eskatuko da.',
    securityIfNotYou:
      'Zu izan ez bazara, berrezarri pasahitza botoiarekin (sarbide-gako guztiak kenduko dira eta saio guztiak itxiko dira) eta jakinarazi erakundeari: norbait zure kontua erabiltzen ari liteke.',
    secondFactorIfNotYou:
      'Zu izan ez bazara, berrezarri pasahitza botoiarekin hurrengo {hours} orduetan: egiaztapen hau desaktibatuko da, sarbide-gako guztiak kenduko dira eta saio guztiak itxiko dira. Jakinarazi erakundeari ere: norbait zure kontua erabiltzen ari liteke.',
    secondFactorResetSubject: 'Bi urratseko egiaztapena desaktibatu da',
    secondFactorResetHeading: 'Bi urratseko egiaztapena desaktibatuta',
    secondFactorResetIntro:
      '{when} (Madrilgo ordua) pasahitza berrezartzean zure kontuko bi urratseko egiaztapena desaktibatu zen; {since} aktibatu zen, duela {hours} ordu baino gutxiago: beste norbaitek aktibatu zezakeen zure pasahitzarekin.',
    secondFactorResetIfYou: 'Zuk aktibatu bazenuen, aktibatu berriro botoiarekin.',
    secondFactorResetButton: 'Aktibatu bi urratseko egiaztapena',
    footer: 'Mezu hau automatikoki bidali da; ez erantzun.',
  },
} satisfies Record<Language, Record<string, string>>;
