/**
 * Let this worker's process end once its work is done, though its channel to the primary is
 * open: a cluster worker's channel holds its event loop for ever, so a worker whose start failed
 * printed its error and then lived on, its primary waiting for it to serve or exit.
 */
export function releaseChannel(): void {
  (process.channel as { unref?: () => void } | undefined)?.unref?.();
}

/**
 * The docs' load of `serve`, in a worker of `serve --http --workers N` (`worker`) or not: in a
 * worker, a load that fails (an unreadable root or ignore file) ends the process with its error
 * and code, which its primary reports and stops on. It had lived on, its channel to the primary
 * holding it, and the server hung without a word more. Apart from the HTTP stack, which a stdio
 * server does not load.
 */
export async function workerLoad<T>(worker: boolean, loading: Promise<T>): Promise<T> {
  try {
    return await loading;
  } catch (error) {
    if (worker) releaseChannel();
    throw error;
  }
}
