/**
 * Common documentation words of other languages and the English words docs write for them (issue
 * 24, sixty-third round): a question in Portuguese, Spanish, French, German or Italian on a site
 * written only in English ("chamadas de entrada" for a page titled Inbound calling, "écran
 * d'accueil" for the home screen) shares no word with its answer, and neither stemming, prefixes
 * nor typo matching reach it. Each word of a row stands in for the row's English words at
 * `translationWeight` (ranking.ts), and only where the reader's pages never write the word itself
 * (`resolveTerms`): a site with pages in the question's language finds them by its own words, and
 * an English site's English words are never touched.
 *
 * Written from general knowledge of how docs are worded, before any question was read for it; one
 * sense in docs each. Left out: words that fold to an English word of another sense (`débit` is
 * `debit`, `journal`, `champ`, `rapport`, `flux`), words spelled as their English word (`server`,
 * `video`, `version`: nothing to add) and multi-word phrases (the analyzer makes terms of single
 * words; "mot de passe" would need `passe`, which is not a password alone).
 */
export interface TranslationRow {
  /** The English words docs write (looked up as the analyzer's terms). */
  readonly en: readonly string[];
  /** The other languages' words for them, by language. */
  readonly pt?: readonly string[];
  readonly es?: readonly string[];
  readonly fr?: readonly string[];
  readonly de?: readonly string[];
  readonly it?: readonly string[];
}

export const TRANSLATION_ROWS: readonly TranslationRow[] = [
  // Setting up.
  { en: ["install"], pt: ["instalar", "instalação", "instalo"], es: ["instalar", "instalación"], fr: ["installer"], de: ["installieren", "installiere"], it: ["installare", "installazione"] },
  { en: ["configure", "settings"], pt: ["configurar", "configuração", "configurações", "definições"], es: ["configurar", "configuración", "configuraciones", "ajustes"], fr: ["configurer", "paramètres", "réglages"], de: ["konfigurieren", "konfiguration", "einstellungen", "einrichten"], it: ["configurare", "configurazione", "impostazioni"] },
  { en: ["start", "quickstart"], pt: ["começar", "iniciar"], es: ["empezar", "comenzar", "iniciar"], fr: ["démarrer", "démarrage", "commencer"], de: ["starten", "schnellstart"], it: ["iniziare", "avviare"] },
  { en: ["example"], pt: ["exemplo", "exemplos"], es: ["ejemplo", "ejemplos"], fr: ["exemple", "exemples"], de: ["beispiel", "beispiele"], it: ["esempio", "esempi"] },
  { en: ["documentation"], pt: ["documentação"], es: ["documentación"], de: ["dokumentation"], it: ["documentazione"] },
  { en: ["environment"], pt: ["ambiente"], es: ["entorno"], fr: ["environnement"], de: ["umgebung", "umgebungsvariable", "umgebungsvariablen"], it: ["ambiente"] },
  { en: ["variable"], pt: ["variável", "variáveis"], es: ["variables"], fr: ["variables"], de: ["variablen", "umgebungsvariable", "umgebungsvariablen"], it: ["variabile", "variabili"] },
  { en: ["deploy", "deployment"], pt: ["implantar", "implantação", "implementar"], es: ["desplegar", "despliegue", "implementar"], fr: ["déployer", "déploiement"], de: ["bereitstellen", "bereitstellung"], it: ["distribuire", "distribuzione"] },
  { en: ["publish"], pt: ["publicar"], es: ["publicar"], fr: ["publier"], de: ["veröffentlichen"], it: ["pubblicare"] },
  { en: ["host", "hosting"], pt: ["hospedar", "hospedagem"], es: ["alojar", "alojamiento"], fr: ["héberger", "hébergement"], de: ["hosten"], it: ["ospitare"] },
  { en: ["update", "upgrade"], pt: ["atualizar", "atualização"], es: ["actualizar", "actualización"], fr: ["actualiser"], de: ["aktualisieren", "aktualisierung"], it: ["aggiornare", "aggiornamento"] },
  { en: ["migrate", "migration"], pt: ["migrar", "migração"], es: ["migrar", "migración"], fr: ["migrer"], de: ["migrieren"], it: ["migrare", "migrazione"] },
  // Accounts and access.
  { en: ["authentication", "authenticate"], pt: ["autenticação", "autenticar"], es: ["autenticación", "autenticar"], fr: ["authentification", "authentifier"], de: ["authentifizierung", "authentifizieren"], it: ["autenticazione", "autenticare"] },
  { en: ["login", "sign"], pt: ["entrar"], fr: ["connexion"], de: ["anmelden", "anmeldung"], it: ["accedere"] },
  { en: ["key"], pt: ["chave", "chaves"], es: ["clave", "claves", "llave"], fr: ["clé", "clés"], de: ["schlüssel"], it: ["chiave", "chiavi"] },
  { en: ["password"], pt: ["senha"], es: ["contraseña"], de: ["passwort", "kennwort"] },
  { en: ["user"], pt: ["usuário", "usuários", "utilizador"], es: ["usuario", "usuarios"], fr: ["utilisateur", "utilisateurs"], de: ["benutzer", "nutzer"], it: ["utente", "utenti"] },
  { en: ["account"], pt: ["conta"], es: ["cuenta"], fr: ["compte"], de: ["konto"] },
  { en: ["permission", "role"], pt: ["permissão", "permissões", "papéis"], es: ["permiso", "permisos", "rol", "roles"], fr: ["autorisation", "rôle", "rôles"], de: ["berechtigung", "berechtigungen", "rolle"], it: ["permesso", "permessi", "ruolo"] },
  { en: ["team", "member"], pt: ["equipe", "equipa", "membro", "membros"], es: ["equipo", "miembro", "miembros"], fr: ["équipe", "membre", "membres"], de: ["mitglied", "mitglieder"], it: ["squadra", "membro", "membri"] },
  { en: ["organization"], pt: ["organização"], es: ["organización"], fr: ["organisation"], de: ["organisation"], it: ["organizzazione"] },
  { en: ["security"], pt: ["segurança"], es: ["seguridad"], fr: ["sécurité"], de: ["sicherheit"], it: ["sicurezza"] },
  { en: ["privacy"], pt: ["privacidade"], es: ["privacidad"], fr: ["confidentialité"], de: ["datenschutz"] },
  // Requests, errors and limits.
  { en: ["request"], pt: ["requisição", "requisições", "solicitação", "solicitações"], es: ["solicitud", "solicitudes", "petición", "peticiones"], fr: ["requête", "requêtes"], de: ["anfrage", "anfragen", "anforderung"], it: ["richiesta", "richieste"] },
  { en: ["response"], pt: ["resposta", "respostas"], es: ["respuesta", "respuestas"], fr: ["réponse", "réponses"], de: ["antwort", "antworten"], it: ["risposta", "risposte"] },
  { en: ["error"], pt: ["erro", "erros"], es: ["errores"], fr: ["erreur", "erreurs"], de: ["fehler"], it: ["errore", "errori"] },
  { en: ["limit"], pt: ["limite", "limites"], es: ["límite", "límites"], fr: ["limite", "limites"], de: ["grenze", "begrenzung"], it: ["limite", "limiti"] },
  { en: ["retry"], pt: ["retentar", "retentativa"], es: ["reintentar", "reintento"], fr: ["réessayer"], de: ["wiederholen", "wiederholung"], it: ["riprovare"] },
  { en: ["debug", "troubleshoot"], pt: ["depurar", "depuração"], es: ["depurar", "depuración"], fr: ["déboguer", "dépannage"], de: ["fehlerbehebung"], it: ["risoluzione"] },
  { en: ["log"], pt: ["registros"], es: ["registros"], de: ["protokoll", "protokolle"] },
  { en: ["test"], pt: ["testar", "teste", "testes"], es: ["probar", "prueba", "pruebas"], de: ["testen"], it: ["testare"] },
  { en: ["parameter"], pt: ["parâmetro", "parâmetros"], es: ["parámetro", "parámetros"], fr: ["paramètre", "paramètres"], it: ["parametro", "parametri"] },
  { en: ["field"], pt: ["campo", "campos"], es: ["campo", "campos"], de: ["feld", "felder"], it: ["campo", "campi"] },
  { en: ["header"], pt: ["cabeçalho", "cabeçalhos"], es: ["encabezado", "encabezados", "cabecera"], fr: ["en-tête"] },
  // Data, files and storage.
  { en: ["data"], pt: ["dados"], es: ["datos"], fr: ["données"], de: ["daten"], it: ["dati"] },
  { en: ["file"], pt: ["arquivo", "arquivos", "ficheiro"], es: ["archivo", "archivos", "fichero"], fr: ["fichier", "fichiers"], de: ["datei", "dateien"] },
  { en: ["upload"], pt: ["carregar"], es: ["subir", "cargar"], fr: ["téléverser"], de: ["hochladen"], it: ["caricare"] },
  { en: ["download"], pt: ["baixar"], es: ["descargar"], fr: ["télécharger"], de: ["herunterladen"], it: ["scaricare"] },
  { en: ["export"], pt: ["exportar"], es: ["exportar"], fr: ["exporter"], de: ["exportieren"], it: ["esportare"] },
  { en: ["import"], pt: ["importar"], es: ["importar"], de: ["importieren"], it: ["importare"] },
  { en: ["save", "store"], pt: ["salvar", "guardar", "armazenar"], es: ["guardar", "almacenar"], fr: ["sauvegarder"], de: ["speichern"], it: ["salvare"] },
  { en: ["storage"], pt: ["armazenamento"], es: ["almacenamiento"], fr: ["stockage"], de: ["speicher"], it: ["archiviazione"] },
  { en: ["memory"], pt: ["memória"], es: ["memoria"], fr: ["mémoire"], it: ["memoria"] },
  { en: ["search"], pt: ["pesquisa", "pesquisar", "busca", "buscar"], es: ["búsqueda", "buscar"], fr: ["recherche", "rechercher"], de: ["suche", "suchen"], it: ["ricerca", "cercare"] },
  { en: ["create"], pt: ["criar"], es: ["crear"], fr: ["créer"], de: ["erstellen", "anlegen"], it: ["creare"] },
  { en: ["delete", "remove"], pt: ["excluir", "apagar", "remover"], es: ["eliminar", "borrar"], fr: ["supprimer", "effacer"], de: ["löschen", "entfernen"], it: ["eliminare", "cancellare"] },
  { en: ["change", "edit"], pt: ["alterar", "mudar", "trocar"], es: ["cambiar"], fr: ["changer"], de: ["ändern"], it: ["cambiare", "modificare"] },
  { en: ["enable"], pt: ["ativar", "habilitar"], es: ["activar", "habilitar"], fr: ["activer"], de: ["aktivieren"], it: ["attivare", "abilitare"] },
  { en: ["disable"], pt: ["desativar", "desabilitar"], es: ["desactivar", "deshabilitar"], fr: ["désactiver"], de: ["deaktivieren"], it: ["disattivare", "disabilitare"] },
  { en: ["use", "usage"], pt: ["usar", "uso", "utilizar"], es: ["usar", "uso", "utilizar"], fr: ["utiliser", "utilisation"], de: ["verwenden", "nutzen"], it: ["usare", "utilizzare"] },
  { en: ["template"], es: ["plantilla", "plantillas"], de: ["vorlage", "vorlagen"] },
  { en: ["model"], pt: ["modelo", "modelos"], es: ["modelo", "modelos"], fr: ["modèle", "modèles"], de: ["modell", "modelle"], it: ["modello", "modelli"] },
  { en: ["workflow", "flow"], pt: ["fluxo", "fluxos"], es: ["flujo", "flujos"], de: ["arbeitsablauf"] },
  // Integrations, messages and events.
  { en: ["connect", "connection"], pt: ["conectar", "conexão"], es: ["conectar", "conexión"], fr: ["connecter"], de: ["verbinden", "verbindung"], it: ["connettere", "connessione", "collegare"] },
  { en: ["integration"], pt: ["integração", "integrar"], es: ["integración", "integrar"], fr: ["intégration", "intégrer"], it: ["integrazione", "integrare"] },
  { en: ["send"], pt: ["enviar", "envio"], es: ["enviar", "envío"], fr: ["envoyer", "envoi"], de: ["senden", "schicken"], it: ["inviare"] },
  { en: ["receive"], pt: ["receber", "recebidas"], es: ["recibir"], fr: ["recevoir"], de: ["empfangen"], it: ["ricevere"] },
  { en: ["message"], pt: ["mensagem", "mensagens"], es: ["mensaje", "mensajes"], de: ["nachricht", "nachrichten"], it: ["messaggio", "messaggi"] },
  { en: ["event"], pt: ["evento", "eventos"], es: ["evento", "eventos"], fr: ["événement", "événements"], de: ["ereignis", "ereignisse"], it: ["evento", "eventi"] },
  { en: ["notification"], pt: ["notificação", "notificações"], es: ["notificación", "notificaciones"], de: ["benachrichtigung", "benachrichtigungen"], it: ["notifica", "notifiche"] },
  { en: ["conversation", "chat"], pt: ["conversa", "conversas"], es: ["conversación", "conversaciones"], de: ["gespräch", "unterhaltung"], it: ["conversazione"] },
  { en: ["call"], pt: ["chamada", "chamadas", "ligação", "ligações"], es: ["llamada", "llamadas"], fr: ["appel", "appels"], de: ["anruf", "anrufe", "aufruf"], it: ["chiamata", "chiamate"] },
  { en: ["inbound", "incoming"], pt: ["entrada", "recebidas"], es: ["entrante", "entrantes"], fr: ["entrant", "entrants", "entrante", "entrantes"], de: ["eingehend", "eingehende", "eingehenden"], it: ["entrata", "entranti", "ricevute"] },
  { en: ["outbound", "outgoing"], pt: ["saída", "efetuadas"], es: ["saliente", "salientes"], fr: ["sortant", "sortants", "sortante", "sortantes"], de: ["ausgehend", "ausgehende", "ausgehenden"], it: ["uscita", "uscenti", "effettuate"] },
  { en: ["phone"], pt: ["telefone", "celular"], es: ["teléfono"], fr: ["téléphone"], de: ["telefon"], it: ["telefono"] },
  { en: ["number"], pt: ["número", "números"], es: ["número", "números"], fr: ["numéro", "numéros"], de: ["nummer"], it: ["numero", "numeri"] },
  { en: ["voice"], pt: ["voz"], es: ["voz"], fr: ["voix"], de: ["stimme"], it: ["voce"] },
  { en: ["record", "recording"], pt: ["gravação", "gravar"], es: ["grabación", "grabar"], fr: ["enregistrement", "enregistrer"], de: ["aufnahme", "aufzeichnen"], it: ["registrazione"] },
  { en: ["transcription", "transcribe"], pt: ["transcrição", "transcrever"], es: ["transcripción", "transcribir"], fr: ["transcrire"], de: ["transkription"], it: ["trascrizione"] },
  { en: ["language", "translate"], pt: ["idioma", "idiomas", "tradução", "traduzir"], es: ["idioma", "idiomas", "traducción", "traducir"], fr: ["langue", "langues", "traduction", "traduire"], de: ["sprache", "sprachen", "übersetzung", "übersetzen"], it: ["lingua", "lingue", "traduzione", "tradurre"] },
  { en: ["image"], pt: ["imagem", "imagens"], es: ["imagen", "imágenes"], de: ["bild", "bilder"], it: ["immagine", "immagini"] },
  { en: ["group"], pt: ["grupo", "grupos"], es: ["grupo", "grupos"], fr: ["groupe", "groupes"], de: ["gruppe", "gruppen"], it: ["gruppo", "gruppi"] },
  { en: ["customer"], pt: ["cliente", "clientes"], es: ["cliente", "clientes"], de: ["kunde", "kunden"], it: ["cliente", "clienti"] },
  { en: ["contact"], pt: ["contato", "contatos"], es: ["contacto", "contactos"], de: ["kontakt", "kontakte"], it: ["contatto", "contatti"] },
  // Screens and pages.
  { en: ["dashboard"], pt: ["painel"], es: ["tablero"], it: ["cruscotto"] },
  { en: ["home"], pt: ["início", "inicial"], es: ["inicio"], fr: ["accueil"], de: ["startseite"] },
  { en: ["screen"], pt: ["tela"], es: ["pantalla"], fr: ["écran"], de: ["bildschirm"], it: ["schermo"] },
  { en: ["page"], pt: ["página", "páginas"], es: ["página", "páginas"], de: ["seite", "seiten"], it: ["pagina", "pagine"] },
  { en: ["shortcut", "keyboard"], pt: ["atalho", "atalhos", "teclado"], es: ["atajo", "atajos", "teclado"], fr: ["raccourci", "raccourcis", "clavier"], de: ["tastenkürzel", "tastatur"], it: ["scorciatoia", "tastiera"] },
  { en: ["domain"], pt: ["domínio"], es: ["dominio"], fr: ["domaine"], de: ["domäne"], it: ["dominio"] },
  { en: ["custom"], pt: ["personalizado", "personalizada", "personalizados", "personalizar"], es: ["personalizado", "personalizada", "personalizar"], fr: ["personnalisé", "personnalisée", "personnaliser"], de: ["benutzerdefiniert", "benutzerdefinierte"], it: ["personalizzato", "personalizzata", "personalizzare"] },
  { en: ["redirect"], pt: ["redirecionar", "redirecionamento"], es: ["redirigir", "redirección"], fr: ["rediriger", "redirection"], de: ["weiterleiten", "weiterleitung"], it: ["reindirizzare"] },
  { en: ["schedule"], pt: ["agendar", "agendamento"], fr: ["planifier"], de: ["zeitplan"], it: ["pianificare"] },
  { en: ["performance", "speed"], pt: ["desempenho", "velocidade"], es: ["rendimiento", "velocidad"], fr: ["vitesse"], de: ["leistung", "geschwindigkeit"], it: ["prestazioni", "velocità"] },
  // Money.
  { en: ["pricing", "price", "cost"], pt: ["preço", "preços", "custo", "custa", "custos"], es: ["precio", "precios", "costo", "cuesta", "coste"], fr: ["prix", "coût", "coûte", "tarif", "tarifs"], de: ["preis", "preise", "kosten", "kostet"], it: ["prezzo", "prezzi", "costo", "costa"] },
  { en: ["billing", "invoice"], pt: ["fatura", "faturas", "faturamento", "cobrança"], es: ["factura", "facturas", "facturación", "cobro"], fr: ["facturation"], de: ["rechnung", "rechnungen", "abrechnung"], it: ["fattura", "fatture", "fatturazione"] },
  { en: ["payment", "pay"], pt: ["pagamento", "pagamentos", "pagar"], es: ["pago", "pagos", "pagar"], fr: ["paiement", "paiements", "payer"], de: ["zahlung", "zahlungen", "bezahlen"], it: ["pagamento", "pagamenti", "pagare"] },
  { en: ["subscription"], pt: ["assinatura", "assinaturas"], es: ["suscripción", "suscripciones"], fr: ["abonnement", "abonnements"], de: ["abonnement", "abo"], it: ["abbonamento"] },
  { en: ["refund"], pt: ["reembolso"], es: ["reembolso"], fr: ["remboursement"], de: ["rückerstattung"], it: ["rimborso"] },
  { en: ["balance", "credit"], pt: ["saldo", "créditos"], es: ["saldo", "créditos"], fr: ["solde"], de: ["guthaben"], it: ["saldo"] },
  { en: ["plan"], pt: ["planos"], es: ["planes"], de: ["tarif"] },
];

/**
 * Each other-language word's English stand-ins, as index terms (`term` is the analyzer's, so
 * `instalação` is looked up as the form it is indexed under). A word that is a stop word, or whose
 * term is one of its own stand-ins, stands in for nothing.
 */
export function translationTable(term: (word: string) => string | null, rows: readonly TranslationRow[] = TRANSLATION_ROWS): ReadonlyMap<string, readonly string[]> {
  const out = new Map<string, string[]>();
  for (const row of rows) {
    const en = [...new Set(row.en.map(term).filter((t): t is string => t !== null))];
    for (const words of [row.pt, row.es, row.fr, row.de, row.it]) {
      for (const word of words ?? []) {
        const t = term(word);
        if (t === null || en.includes(t)) continue;
        out.set(t, [...new Set([...(out.get(t) ?? []), ...en])]);
      }
    }
  }
  return out;
}
