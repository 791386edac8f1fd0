/** Debian's chromium package: the browser the page tests drive (no browser is downloaded). */
export const CHROMIUM = "/usr/bin/chromium";
