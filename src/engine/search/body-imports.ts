import { type BodyKey, bodyKeyOf } from "../../vfs/body-key.js";
import type { Page } from "../../vfs/page.js";
import { bodyImportsMdx } from "./includes.js";

/**
 * Whether each distinct page body imports MDX (`bodyImportsMdx`), asked once per body: on a
 * first start the load asks it of every body it offers for analysis (`AnalysisDuringLoad`) and
 * hands its answers to the build, which asked it of every body again (~0.15-0.3 s of a 1,785-page
 * site's main thread, 2026-12-07). The answer kept is the text's (a key stands for one text, and
 * the texts never change), so it holds for any site a key is met in; a page generated from a spec
 * never imports (`expandIncludes`), told each time, since its body's key may be an author's too.
 */
export class BodyImports {
  private readonly answers = new Map<BodyKey, boolean>();

  /** Whether `page`'s body imports MDX. */
  of(page: Page): boolean {
    if (page.generated) return false;
    const key = bodyKeyOf(page);
    let answer = this.answers.get(key);
    if (answer === undefined) {
      answer = bodyImportsMdx(key, page);
      this.answers.set(key, answer);
    }
    return answer;
  }
}
