/**
 * A problem that stops a load instead of being reported and served around: serving anyway would
 * open what the repository means to keep closed (an ignore file that exists but cannot be read
 * would serve every file it excludes). The CLI prints the message and exits 2; a live reload keeps
 * the last good state serving and reports it.
 */
export class LoadStoppedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LoadStoppedError";
  }
}
