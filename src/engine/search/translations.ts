import { maxOf } from "../../arrays.js";

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
  /** Chinese (simplified, and traditional where it differs), Japanese and Korean (`CJK_ROWS`). */
  readonly zh?: readonly string[];
  readonly ja?: readonly string[];
  readonly ko?: readonly string[];
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
 * The same for Chinese, Japanese and Korean (issue 24, sixty-fourth round): "如何安装自定义节点",
 * "APIキーの設定" or "API 키 설정 방법" on a site written only in English shares no word with its
 * answer either. A question in these scripts has no spaces between its words (Korean has them
 * between phrases, the particles attached), so these words are also looked for inside the
 * question's runs of those scripts, longest first (`cjkTableWords`): the segmenter cuts 自定义
 * as 自 + 定义 and 密钥 as 密 + 钥, and neither half is the word. One sense in docs each; loanwords
 * in katakana and Hangul as docs write them. A word of one syllable (키, 팀, 홈) stands in only as a
 * whole word of the question (API 키, 키를), never inside a longer one (키워드 is "keyword"). Multi-word phrases are left out as above
 * (문제 해결: 해결 alone is "solve"). Rows whose English word other languages write in English too
 * (token, webhook, node) are here only: those languages need no row for them.
 */
export const CJK_ROWS: readonly TranslationRow[] = [
  // Setting up.
  { en: ["install"], zh: ["安装", "安裝"], ja: ["インストール", "導入"], ko: ["설치"] },
  { en: ["configure", "settings"], zh: ["配置", "设置", "設置", "設定"], ja: ["設定", "構成"], ko: ["설정", "구성"] },
  { en: ["start", "quickstart"], zh: ["开始", "開始", "快速开始", "入门", "启动"], ja: ["開始", "起動", "クイックスタート", "はじめに"], ko: ["시작", "퀵스타트"] },
  { en: ["example"], zh: ["示例", "例子", "范例", "範例"], ja: ["サンプル", "使用例"], ko: ["예제", "예시"] },
  { en: ["documentation"], zh: ["文档", "文檔"], ja: ["ドキュメント"], ko: ["문서"] },
  { en: ["environment"], zh: ["环境", "環境"], ja: ["環境"], ko: ["환경"] },
  { en: ["variable"], zh: ["变量", "變數"], ja: ["変数"], ko: ["변수"] },
  { en: ["deploy", "deployment"], zh: ["部署"], ja: ["デプロイ"], ko: ["배포"] },
  { en: ["publish"], zh: ["发布", "發布"], ja: ["公開"], ko: ["게시"] },
  { en: ["host", "hosting"], zh: ["托管", "自托管", "自架"], ja: ["ホスティング"], ko: ["호스팅"] },
  { en: ["update", "upgrade"], zh: ["更新", "升级", "升級"], ja: ["更新", "アップデート", "アップグレード"], ko: ["업데이트", "업그레이드", "갱신"] },
  { en: ["migrate", "migration"], zh: ["迁移", "遷移"], ja: ["移行"], ko: ["마이그레이션"] },
  // Accounts and access.
  { en: ["authentication", "authenticate"], zh: ["认证", "認證", "身份验证", "鉴权"], ja: ["認証"], ko: ["인증"] },
  { en: ["login", "sign"], zh: ["登录", "登入"], ja: ["ログイン", "サインイン"], ko: ["로그인"] },
  { en: ["key"], zh: ["密钥", "金鑰"], ja: ["キー"], ko: ["키"] },
  { en: ["token"], zh: ["令牌"], ja: ["トークン"], ko: ["토큰"] },
  { en: ["password"], zh: ["密码", "密碼"], ja: ["パスワード"], ko: ["비밀번호", "패스워드"] },
  { en: ["user"], zh: ["用户", "用戶", "使用者"], ja: ["ユーザー", "ユーザ"], ko: ["사용자", "유저"] },
  { en: ["account"], zh: ["账户", "账号", "帳戶", "帳號"], ja: ["アカウント"], ko: ["계정"] },
  { en: ["permission", "role"], zh: ["权限", "權限", "角色"], ja: ["権限", "ロール"], ko: ["권한", "역할"] },
  { en: ["team", "member"], zh: ["团队", "團隊", "成员", "成員"], ja: ["チーム", "メンバー"], ko: ["팀", "멤버"] },
  { en: ["organization"], zh: ["组织", "組織"], ja: ["組織"], ko: ["조직"] },
  { en: ["security"], zh: ["安全"], ja: ["セキュリティ"], ko: ["보안"] },
  { en: ["privacy"], zh: ["隐私", "隱私"], ja: ["プライバシー"], ko: ["개인정보"] },
  // Requests, errors and limits.
  { en: ["request"], zh: ["请求"], ja: ["リクエスト"], ko: ["요청"] },
  { en: ["response"], zh: ["响应", "回應"], ja: ["レスポンス", "応答"], ko: ["응답"] },
  { en: ["error"], zh: ["错误", "錯誤", "报错"], ja: ["エラー"], ko: ["오류", "에러"] },
  { en: ["limit"], zh: ["限制"], ja: ["制限", "上限"], ko: ["제한"] },
  { en: ["retry"], zh: ["重试", "重試"], ja: ["再試行", "リトライ"], ko: ["재시도"] },
  { en: ["debug", "troubleshoot"], zh: ["调试", "調試", "故障排除", "排查"], ja: ["デバッグ", "トラブルシューティング"], ko: ["디버그", "디버깅", "트러블슈팅"] },
  { en: ["log"], zh: ["日志", "日誌"], ja: ["ログ"], ko: ["로그"] },
  { en: ["test"], zh: ["测试", "測試"], ja: ["テスト"], ko: ["테스트"] },
  { en: ["parameter"], zh: ["参数", "參數"], ja: ["パラメータ", "パラメーター"], ko: ["매개변수", "파라미터"] },
  { en: ["field"], zh: ["字段", "欄位"], ja: ["フィールド"], ko: ["필드"] },
  { en: ["header"], zh: ["标头", "请求头"], ja: ["ヘッダー", "ヘッダ"], ko: ["헤더"] },
  { en: ["webhook"], ja: ["ウェブフック"], ko: ["웹훅"] },
  // Data, files and storage.
  { en: ["data"], zh: ["数据", "資料"], ja: ["データ"], ko: ["데이터"] },
  { en: ["file"], zh: ["文件", "檔案"], ja: ["ファイル"], ko: ["파일"] },
  { en: ["upload"], zh: ["上传", "上傳"], ja: ["アップロード"], ko: ["업로드"] },
  { en: ["download"], zh: ["下载", "下載"], ja: ["ダウンロード"], ko: ["다운로드"] },
  { en: ["export"], zh: ["导出", "匯出"], ja: ["エクスポート"], ko: ["내보내기"] },
  { en: ["import"], zh: ["导入", "匯入"], ja: ["インポート"], ko: ["가져오기"] },
  { en: ["save", "store"], zh: ["保存", "儲存"], ja: ["保存"], ko: ["저장"] },
  { en: ["storage"], zh: ["存储"], ja: ["ストレージ"], ko: ["스토리지"] },
  { en: ["memory"], zh: ["内存", "记忆", "記憶"], ja: ["メモリ", "メモリー"], ko: ["메모리"] },
  { en: ["search"], zh: ["搜索", "检索", "搜尋"], ja: ["検索"], ko: ["검색"] },
  { en: ["index"], zh: ["索引"], ja: ["インデックス"], ko: ["인덱스"] },
  // Not key: キーワード and 키워드 hold キー and 키.
  { en: ["keyword"], zh: ["关键词", "關鍵字"], ja: ["キーワード"], ko: ["키워드"] },
  { en: ["function"], zh: ["函数", "函數"], ja: ["関数"], ko: ["함수"] },
  { en: ["create"], zh: ["创建", "建立", "新建"], ja: ["作成"], ko: ["생성", "만들기"] },
  { en: ["delete", "remove"], zh: ["删除", "刪除"], ja: ["削除"], ko: ["삭제"] },
  { en: ["change", "edit"], zh: ["修改", "更改", "编辑", "編輯"], ja: ["変更", "編集"], ko: ["변경", "수정", "편집"] },
  { en: ["enable"], zh: ["启用", "啟用", "开启"], ja: ["有効化"], ko: ["활성화"] },
  { en: ["disable"], zh: ["禁用", "停用"], ja: ["無効化"], ko: ["비활성화"] },
  { en: ["use", "usage"], zh: ["使用", "用法"], ja: ["使用", "使い方", "利用"], ko: ["사용", "사용법"] },
  { en: ["template"], zh: ["模板", "範本"], ja: ["テンプレート"], ko: ["템플릿"] },
  { en: ["model"], zh: ["模型"], ja: ["モデル"], ko: ["모델"] },
  { en: ["workflow", "flow"], zh: ["工作流", "流程"], ja: ["ワークフロー", "フロー"], ko: ["워크플로", "워크플로우"] },
  { en: ["node"], zh: ["节点", "節點"], ja: ["ノード"], ko: ["노드"] },
  { en: ["agent"], ja: ["エージェント"], ko: ["에이전트"] },
  { en: ["tool"], zh: ["工具"], ja: ["ツール"], ko: ["도구"] },
  { en: ["server"], zh: ["服务器", "伺服器"], ja: ["サーバー", "サーバ"], ko: ["서버"] },
  { en: ["database"], zh: ["数据库", "資料庫"], ja: ["データベース"], ko: ["데이터베이스"] },
  { en: ["version"], zh: ["版本"], ja: ["バージョン"], ko: ["버전"] },
  { en: ["cache"], zh: ["缓存", "快取"], ja: ["キャッシュ"], ko: ["캐시"] },
  { en: ["plugin", "extension"], zh: ["插件", "扩展", "擴充"], ja: ["プラグイン", "拡張機能"], ko: ["플러그인", "확장"] },
  { en: ["stream", "streaming"], zh: ["流式"], ja: ["ストリーミング"], ko: ["스트리밍"] },
  // Integrations, messages and events.
  { en: ["connect", "connection"], zh: ["连接", "連接"], ja: ["接続"], ko: ["연결"] },
  { en: ["integration"], zh: ["集成", "整合"], ja: ["統合", "連携"], ko: ["통합", "연동"] },
  { en: ["send"], zh: ["发送", "發送"], ja: ["送信"], ko: ["발송", "전송", "보내기"] },
  { en: ["receive"], zh: ["接收"], ja: ["受信"], ko: ["수신"] },
  { en: ["message"], zh: ["消息", "訊息"], ja: ["メッセージ"], ko: ["메시지"] },
  { en: ["event"], zh: ["事件"], ja: ["イベント"], ko: ["이벤트"] },
  { en: ["notification"], zh: ["通知"], ja: ["通知"], ko: ["알림"] },
  { en: ["conversation", "chat"], zh: ["对话", "對話", "会话", "聊天"], ja: ["会話", "チャット"], ko: ["대화", "채팅"] },
  { en: ["call"], zh: ["通话", "呼叫", "调用"], ja: ["通話", "呼び出し"], ko: ["통화", "호출"] },
  { en: ["inbound", "incoming"], zh: ["呼入", "来电"], ja: ["着信"], ko: ["인바운드"] },
  { en: ["outbound", "outgoing"], zh: ["呼出", "外呼"], ja: ["発信"], ko: ["발신", "아웃바운드"] },
  { en: ["phone"], zh: ["电话", "電話", "手机"], ja: ["電話"], ko: ["전화"] },
  { en: ["number"], zh: ["号码", "號碼"], ja: ["番号"], ko: ["번호"] },
  { en: ["voice"], zh: ["语音", "語音"], ja: ["音声"], ko: ["음성"] },
  { en: ["record", "recording"], zh: ["录音", "录制", "錄音"], ja: ["録音", "録画"], ko: ["녹음", "녹화"] },
  { en: ["transcription", "transcribe"], zh: ["转录", "转写"], ja: ["文字起こし", "書き起こし"], ko: ["전사"] },
  { en: ["language", "translate"], zh: ["语言", "語言", "翻译", "翻譯"], ja: ["言語", "翻訳"], ko: ["언어", "번역"] },
  { en: ["image"], zh: ["图片", "图像", "圖片"], ja: ["画像"], ko: ["이미지"] },
  { en: ["group"], zh: ["分组", "群组"], ja: ["グループ"], ko: ["그룹"] },
  { en: ["customer"], zh: ["客户", "客戶"], ja: ["顧客"], ko: ["고객"] },
  { en: ["contact"], zh: ["联系人", "聯絡人"], ja: ["連絡先"], ko: ["연락처"] },
  // Screens and pages.
  { en: ["dashboard"], zh: ["仪表板", "仪表盘", "控制台"], ja: ["ダッシュボード"], ko: ["대시보드"] },
  { en: ["home"], zh: ["首页", "主页"], ja: ["ホーム"], ko: ["홈"] },
  { en: ["screen"], zh: ["屏幕", "螢幕"], ja: ["画面"], ko: ["화면"] },
  { en: ["page"], zh: ["页面", "頁面"], ja: ["ページ"], ko: ["페이지"] },
  { en: ["shortcut", "keyboard"], zh: ["快捷键", "键盘", "快捷鍵", "鍵盤"], ja: ["ショートカット", "キーボード"], ko: ["단축키", "키보드"] },
  { en: ["domain"], zh: ["域名", "網域"], ja: ["ドメイン"], ko: ["도메인"] },
  { en: ["custom"], zh: ["自定义", "自訂"], ja: ["カスタム"], ko: ["커스텀"] },
  { en: ["redirect"], zh: ["重定向"], ja: ["リダイレクト"], ko: ["리디렉션", "리다이렉트"] },
  { en: ["schedule"], zh: ["定时", "调度", "排程"], ja: ["スケジュール"], ko: ["스케줄", "예약"] },
  { en: ["performance", "speed"], zh: ["性能", "速度"], ja: ["パフォーマンス", "性能"], ko: ["성능", "속도"] },
  // Money.
  { en: ["pricing", "price", "cost"], zh: ["价格", "價格", "定价", "费用", "費用"], ja: ["料金", "価格"], ko: ["가격", "요금", "비용"] },
  { en: ["billing", "invoice"], zh: ["账单", "帳單", "计费", "发票"], ja: ["請求書"], ko: ["청구", "청구서"] },
  { en: ["payment", "pay"], zh: ["支付", "付款"], ja: ["支払い", "決済"], ko: ["결제", "지불"] },
  { en: ["subscription"], zh: ["订阅", "訂閱"], ja: ["サブスクリプション"], ko: ["구독"] },
  { en: ["refund"], zh: ["退款"], ja: ["返金"], ko: ["환불"] },
  { en: ["balance", "credit"], zh: ["余额", "餘額", "积分", "额度"], ja: ["残高", "クレジット"], ko: ["잔액", "크레딧"] },
  { en: ["plan"], zh: ["套餐"], ja: ["プラン"], ko: ["플랜", "요금제"] },
];

/**
 * Each other-language word's English stand-ins, as index terms (`term` is the analyzer's, so
 * `instalação` is looked up as the form it is indexed under). A word that is a stop word, or whose
 * term is one of its own stand-ins, stands in for nothing.
 */
export function translationTable(term: (word: string) => string | null, rows: readonly TranslationRow[] = [...TRANSLATION_ROWS, ...CJK_ROWS]): ReadonlyMap<string, readonly string[]> {
  const out = new Map<string, string[]>();
  for (const row of rows) {
    const en = [...new Set(row.en.map(term).filter((t): t is string => t !== null))];
    for (const words of [row.pt, row.es, row.fr, row.de, row.it, row.zh, row.ja, row.ko]) {
      for (const word of words ?? []) {
        const t = term(word);
        if (t === null || en.includes(t)) continue;
        out.set(t, [...new Set([...(out.get(t) ?? []), ...en])]);
      }
    }
  }
  return out;
}

/** Han, kana and Hangul runs of a question (as the tokenizer's `CJK_RE`). */
const CJK_RUN_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc\uff70]{2,}/gu;

/** `CJK_ROWS`' words of two characters or more, the ones looked for inside a run. */
const CJK_WORDS: ReadonlySet<string> = new Set(CJK_ROWS.flatMap((r) => [...(r.zh ?? []), ...(r.ja ?? []), ...(r.ko ?? [])]).filter((w) => [...w].length >= 2));
const LONGEST_CJK_WORD = maxOf([...CJK_WORDS].map((w) => w.length));

/**
 * The table's words written in a question's runs of Han, kana or Hangul, leftmost and longest
 * first, each once: 如何安装自定义节点 holds 安装, 自定义 and 节点; 비활성화 is disable, not enable
 * (활성화). What the tokenizer's terms miss (自 + 定义) is found so; what they hold is found twice,
 * which the caller's set of terms folds.
 */
export function cjkTableWords(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(CJK_RUN_RE)) {
    const run = m[0];
    let i = 0;
    while (i < run.length) {
      let found = 0;
      for (let n = Math.min(LONGEST_CJK_WORD, run.length - i); n >= 2 && found === 0; n--) if (CJK_WORDS.has(run.slice(i, i + n))) found = n;
      if (found > 0) out.add(run.slice(i, i + found));
      i += found > 0 ? found : 1;
    }
  }
  return [...out];
}
