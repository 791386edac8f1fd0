/**
 * Work done in stages that each cannot be cut (a walk of the whole navigation), written once as a
 * generator that yields the name of each stage it has done: run through at once (`check`, a first
 * load), or with a turn of the event loop between stages (`between`), so that a reload of a large
 * docs.json while serving answers other callers between them (see `ReloadSlices.stage`).
 */
export type Stages<T> = Generator<string, T, void>;

/** Called after each stage with its name; resolves when the work may go on. */
export type Between = (stage: string) => Promise<void>;

/** Every stage, one after the other, on this turn. */
export function allStages<T>(stages: Stages<T>): T {
  for (;;) {
    const step = stages.next();
    if (step.done === true) return step.value;
  }
}

/** Every stage, `between` awaited after each (none: all at once). */
export async function stagesBetween<T>(stages: Stages<T>, between: Between | undefined): Promise<T> {
  if (between === undefined) return allStages(stages);
  for (;;) {
    const step = stages.next();
    if (step.done === true) return step.value;
    await between(step.value);
  }
}
