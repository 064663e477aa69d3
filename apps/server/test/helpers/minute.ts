/**
 * Waits, when need be, for the next UTC minute, so that the `ms` after it fall in one minute
 * window: a test that fills a per-minute limit must not see the window reset half way.
 */
export const startWithinOneMinute = async (ms: number) => {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 60_000 - ms)
    await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 100));
};
