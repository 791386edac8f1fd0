/**
 * Index terms as small integers. Postings and per-unit counting work on ids (array indexing)
 * rather than strings (hashing), which is most of what makes indexing fast.
 */
export class Vocabulary {
  private readonly ids = new Map<string, number>();
  private readonly strings: string[] = [];

  /** The id of a term, assigning the next one if it is new. */
  id(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.strings.length;
      this.ids.set(term, id);
      this.strings.push(term);
    }
    return id;
  }

  /** The id of a known term, without assigning one (queries must not grow the vocabulary). */
  find(term: string): number | undefined {
    return this.ids.get(term);
  }

  term(id: number): string {
    return this.strings[id] as string;
  }

  get size(): number {
    return this.strings.length;
  }
}
