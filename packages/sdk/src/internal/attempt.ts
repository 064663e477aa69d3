/** Rejection of an attempt that outlived its time-out (mapped to a TimeoutError by the caller). */
export class AttemptTimeout {}

/**
 * One try: fetch and read the whole body. The timer covers the body read too, and settles the
 * attempt itself, so it fires even with a fetch that ignores its signal; the caller's signal aborts
 * it at once.
 */
export const attempt = (
  fetchImpl: (url: string, init: RequestInit) => Promise<Response>,
  url: string,
  init: { method: string; headers: Record<string, string>; body: string | undefined },
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<{ response: Response; text: string }> =>
  new Promise((resolve, reject) => {
    const controller = new AbortController();
    const onAbort = () => {
      reject(signal?.reason);
      controller.abort(signal?.reason);
    };
    const timer = setTimeout(() => {
      reject(new AttemptTimeout());
      controller.abort();
    }, timeoutMs);
    signal?.addEventListener("abort", onAbort, { once: true });
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    fetchImpl(url, { ...init, signal: controller.signal })
      .then((response) => response.text().then((text) => resolve({ response, text })))
      .catch(reject)
      .finally(done);
  });
