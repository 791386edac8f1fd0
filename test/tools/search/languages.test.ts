import { describe, expect, it } from "vitest";
import { SearchIndex } from "../../../src/engine/search/search-index.js";
import { inlineSite } from "./inline-site.js";

/**
 * Every language the spec lists for `navigation.languages` (issue 24, item 3): a question written
 * as a reader of that language types it (accents left out, a question word, an attached article
 * or particle, another form of the word) finds the page written in it, and only that page.
 */
const CASES: readonly { code: string; title: string; body: string; query: string }[] = [
  { code: "ar", title: "التثبيت", body: "ثبّت الحزمة باستخدام مدير الحزم.", query: "كيفية تثبيت" },
  { code: "ca", title: "Configuració del servidor", body: "Els paràmetres es desen al fitxer.", query: "configuracio servidor" },
  { code: "cs", title: "Nastavení účtu", body: "Změňte jméno a heslo.", query: "nastaveni uctu" },
  { code: "cn", title: "创建知识库", body: "上传文档以建立索引。", query: "如何创建知识库" },
  { code: "zh-Hant", title: "建立知識庫", body: "上傳文件以建立索引。", query: "知識庫" },
  { code: "nl", title: "Een server opzetten", body: "Download het pakket en start het.", query: "hoe zet ik een server op: opzetten" },
  { code: "en", title: "Install the CLI", body: "Run the installer.", query: "installing the cli" },
  { code: "fi", title: "Käyttöönotto", body: "Ota palvelu käyttöön pilvessä.", query: "kayttoonotto" },
  { code: "fr", title: "Créer une clé d'API", body: "Générez une clé dans le tableau de bord.", query: "comment creer une cle api" },
  { code: "de", title: "Zugriffstoken verwalten", body: "Schlüssel rotieren und widerrufen.", query: "Zugriff verwalten" },
  { code: "he", title: "הַתְקָנָה", body: "הורידו את החבילה.", query: "התקנה" },
  { code: "hi", title: "स्थापना", body: "पैकेज डाउनलोड करें।", query: "स्थापना कैसे करें" },
  { code: "hu", title: "Telepítés", body: "Töltse le a csomagot.", query: "telepites" },
  { code: "id", title: "Cara memasang SDK", body: "Jalankan perintah berikut.", query: "bagaimana memasang sdk" },
  { code: "it", title: "Funzionalità avanzate", body: "Attiva le opzioni sperimentali.", query: "funzionalita avanzate" },
  { code: "jp", title: "ナレッジベースの作成", body: "ドキュメントをアップロードします。", query: "ナレッジベース 作成" },
  { code: "ko", title: "메모리 설정", body: "에이전트의 기억을 켭니다.", query: "메모리를 설정하는 방법" },
  { code: "lv", title: "Iestatīšana", body: "Lejupielādējiet pakotni.", query: "iestatisana" },
  { code: "no", title: "Pålogging", body: "Bruk kontoen din.", query: "palogging" },
  { code: "pl", title: "Zarządzanie kluczami", body: "Twórz i usuwaj klucze.", query: "zarzadzanie kluczami" },
  { code: "pt-BR", title: "Configuração do webhook", body: "Verifique a assinatura de cada entrega.", query: "Como configuracao webhook" },
  { code: "ro", title: "Setări", body: "Modificați preferințele contului.", query: "setari" },
  { code: "ru", title: "Учётная запись", body: "Измените пароль.", query: "учетная запись" },
  { code: "es", title: "Límites de tasa", body: "Cada plan tiene un límite por minuto.", query: "cómo limite de tasa" },
  { code: "sv", title: "Återställ lösenord", body: "Följ länken i e-postmeddelandet.", query: "aterstall losenord" },
  { code: "tr", title: "İzinler ve kullanıcı ayarları", body: "Rolleri yönetin.", query: "izinler kullanici ayarlari" },
  { code: "uk", title: "Налаштування об'єктів", body: "Оберіть потрібні параметри.", query: "налаштування об’єктів" },
  { code: "uz", title: "Oʻrnatish", body: "Paketni yuklab oling.", query: "o'rnatish" },
  { code: "vi", title: "Cài đặt", body: "Tải gói về máy.", query: "cai dat" },
];

describe("search in every language the spec lists", () => {
  const index = new SearchIndex();
  index.sync(inlineSite(Object.fromEntries(CASES.map((c) => [`/${c.code}/start.mdx`, `---\ntitle: "${c.title}"\n---\n${c.body}\n`]))));

  it.each(CASES)("$code: $query", ({ code, query }) => {
    expect(index.search({ query, canRead: () => true }).map((h) => h.page.path)).toEqual([`/${code}/start`]);
  });

  it("a noun of action meets its verb in Portuguese, Spanish and Italian (instalação, como instalar)", () => {
    const romance = new SearchIndex();
    romance.sync(
      inlineSite({
        "/pt/installation.mdx": "---\ntitle: Instalação\n---\nUse o pip.\n",
        "/pt/tools.mdx": "---\ntitle: Ferramentas\n---\nPara instalar o pacote, rode o comando. Depois de instalar, configure.\n",
        "/es/setup.mdx": "---\ntitle: Configuraciones del servidor\n---\nEl archivo.\n",
        "/it/setup.mdx": "---\ntitle: Installazione\n---\nScarica il pacchetto.\n",
        "/en/setup.mdx": "---\ntitle: Similar settings\n---\nA popular calendar sidebar.\n",
      }),
    );
    const paths = (query: string) => romance.search({ query, canRead: () => true }).map((h) => h.page.path);
    expect(paths("como instalar")).toEqual(["/pt/installation", "/pt/tools"]);
    expect(paths("configurar servidor")).toEqual(["/es/setup"]);
    expect(paths("installare")).toEqual(["/it/setup"]);
    expect(paths("similar popular calendar")).toEqual(["/en/setup"]);
  });

  it("a German compound the site writes apart finds the words (Zugriffstoken: Zugriff, Token)", () => {
    const german = new SearchIndex();
    const files = {
      "/de/token.mdx": "---\ntitle: Token für den Zugriff\n---\nErstellen Sie einen Token für den Zugriff auf die API.\n",
      "/de/rechte.mdx": "---\ntitle: Rechte\n---\nDer Zugriff wird pro Team vergeben.\n",
      "/de/konto.mdx": "---\ntitle: Konto\n---\nDas Konto hat einen Namen.\n",
    };
    german.sync(inlineSite(files));
    const paths = (query: string) => german.search({ query, canRead: () => true }).map((h) => h.page.path);
    expect(paths("Zugriffstoken erstellen")).toEqual(["/de/token", "/de/rechte"]);
    expect(paths("Zugriffstoken")).toEqual(["/de/token", "/de/rechte"]);
    // A word the site writes is never split: the page that writes it comes first.
    german.sync(inlineSite({ ...files, "/de/neu.mdx": "---\ntitle: Neu\n---\nDas Zugriffstoken läuft ab.\n" }));
    expect(paths("Zugriffstoken")).toEqual(["/de/neu"]);
  });

  it("covers every language code of the spec", () => {
    expect(CASES.map((c) => c.code).sort()).toEqual(
      ["ar", "ca", "cs", "cn", "zh-Hant", "nl", "en", "fi", "fr", "de", "he", "hi", "hu", "id", "it", "jp", "ko", "lv", "no", "pl", "pt-BR", "ro", "ru", "es", "sv", "tr", "uk", "uz", "vi"].sort(),
    );
  });
});
