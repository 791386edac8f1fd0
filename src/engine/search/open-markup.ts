/**
 * Whether a line of MDX prose ends inside a tag or a `{...}` expression that goes on to the
 * next line. Components are usually written one attribute a line:
 *
 *     <Card
 *       title="Run your first agent"
 *       href="/quickstart"
 *     >
 *
 * Line-level Markdown cleaning must leave such continuation lines alone: the lone `>` that closes
 * the tag above would otherwise be read as a block quote marker and dropped, leaving the tag
 * unclosed, and its attributes (`icon="plus"`, `href=...`) would reach snippets and the index as
 * words. The tags themselves are removed later, on the joined text, by `stripTags`.
 */
export class OpenMarkup {
  /** Inside a tag (between `<Name` and its `>`). */
  private inTag = false;
  /** Open `{` count (in a tag's attribute or in an expression). */
  private braces = 0;
  /** The quote character of an attribute value left open, or "". */
  private quote = "";
  /** A blank line came inside a tag: the next line says whether the tag goes on. */
  private blankInTag = false;

  /** True while a tag or an expression is open: the next line continues it. */
  get open(): boolean {
    return this.inTag || this.braces > 0;
  }

  /** Forget an open construct (a blank line ends a paragraph: a stray `<` must not run on). */
  reset(): void {
    this.inTag = false;
    this.braces = 0;
    this.quote = "";
    this.blankInTag = false;
  }

  /**
   * Whether `line` continues a tag or expression (`open`, read before `advance(line)`). After a
   * blank line inside a tag, only a line that reads as more of the tag does: an attribute
   * (`href="/x"`, a lone `defaultOpen`), an expression, or the tag's end (`>`, `/>`). Real
   * sites leave blank lines among a component's attributes (Story Protocol's cards, and the
   * platform builds them), while a stray `<` in prose (`a <b`) must not swallow the paragraphs
   * after it.
   */
  openAt(line: string): boolean {
    if (this.blankInTag && line.trim() !== "") {
      this.blankInTag = false;
      if (this.inTag && !ATTRIBUTE_LINE_RE.test(line)) this.reset();
    }
    return this.open;
  }

  /** Move through one line of prose. */
  advance(line: string): void {
    if (line.trim() === "") {
      // Whether a tag goes on past a blank line, the next line says (`openAt`). An expression
      // may hold blank lines (a multi-line object literal), so it stays open.
      if (this.inTag && this.braces === 0) this.blankInTag = true;
      return;
    }
    // Outside markup only a `<` or a `{` opens anything (a backtick only hides them): most
    // lines of prose hold neither, and are not read a character at a time (every prose line
    // of every page passes here: ~6% of analysing a page).
    if (!this.open && !line.includes("<") && !line.includes("{")) return;
    const n = line.length;
    for (let i = 0; i < n; i++) {
      const ch = line.charCodeAt(i);
      if (this.quote !== "") {
        if (ch === 92 /* \ */ && this.braces > 0) i++;
        else if (line[i] === this.quote) this.quote = "";
        continue;
      }
      if (this.braces > 0) {
        if (ch === 34 || ch === 39 || ch === 96) this.quote = line[i] as string;
        else if (ch === 123) this.braces++;
        else if (ch === 125) this.braces--;
        continue;
      }
      if (this.inTag) {
        if (ch === 34 || ch === 39) this.quote = line[i] as string;
        else if (ch === 123) this.braces = 1;
        else if (ch === 62 /* > */) this.inTag = false;
        continue;
      }
      if (ch === 96 /* ` */) {
        // Inline code is literal: `<Card>` and `{id}` there open nothing.
        const close = line.indexOf("`", i + 1);
        if (close !== -1) i = close;
        continue;
      }
      if (ch === 123) this.braces = 1;
      else if (ch === 60 /* < */ && i + 1 < n && isTagStart(line.charCodeAt(i + 1))) this.inTag = true;
    }
  }
}

/** A line that reads as more of a tag: an attribute, alone or with its value, an expression, or
 *  the tag's end. */
const ATTRIBUTE_LINE_RE = /^[ \t]*(?:[A-Za-z_:][\w:.-]*[ \t]*(?:=|$|\/?>)|\{|\/?>)/;

/** A letter (a tag name) or `/` (a closing tag). */
function isTagStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 47;
}
