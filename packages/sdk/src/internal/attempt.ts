/** Rejection of an attempt that outlived its time-out (mapped to a TimeoutError by the caller). */
export class AttemptTimeout {}

/**
 * One try: fetch and read the whole body. The timer covers the body read too, and settles the
 * attempt itself, so it fires even with a fetch that ignores its signal; the caller's signal aborts
 * it at once. Both also abort the fetch, so a stalled connection is released, not just abandoned.
 *
 * Runs once per page of a walk, so it keeps to one promise chain and one cleanup path: a page walk
 * pays for the controller and the timer, not for layers around them (see bench/iterate.ts).
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
    const settle = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const fail = (reason: unknown) => {
      settle();
      reject(reason);
    };
    const onAbort = () => {
      fail(signal?.reason);
      controller.abort(signal?.reason);
    };
    const timer = setTimeout(() => {
      fail(new AttemptTimeout());
      controller.abort();
    }, timeoutMs);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      fetchImpl(url, {
        method: init.method,
        headers: init.headers,
        body: init.body,
        signal: controller.signal,
      }).then(
        (response) =>
          response.text().then((text) => {
            settle();
            resolve({ response, text });
          }, fail),
        fail,
      );
    } catch (error) {
      // A custom fetch that throws instead of rejecting: same outcome, and no timer left behind.
      fail(error);
    }
  });
