import { spawn } from "node:child_process";

/** The command that opens a URL in the desktop's browser, by platform. */
function opener(url: string, platform: NodeJS.Platform): [string, string[]] {
  if (platform === "darwin") return ["open", [url]];
  // `start` is a cmd built-in; its first quoted argument is a window title, hence the "".
  if (platform === "win32") return ["cmd", ["/c", "start", '""', url]];
  return ["xdg-open", [url]];
}

/**
 * Open `url` in the user's browser (`svc-mcp preview`), without waiting for it: the opener is
 * detached, its output ignored. Where there is none (a server, a container), `onError` says so
 * and the URL stays on the log for the user to open.
 */
export function openBrowser(url: string, onError: (message: string) => void, platform: NodeJS.Platform = process.platform): void {
  const [command, args] = opener(url, platform);
  try {
    const child = spawn(command, args, { detached: true, stdio: "ignore" });
    child.once("error", (error) => onError(`could not open a browser (${error.message}); open ${url} yourself`));
    child.unref();
  } catch (error) {
    onError(`could not open a browser (${(error as Error).message}); open ${url} yourself`);
  }
}
