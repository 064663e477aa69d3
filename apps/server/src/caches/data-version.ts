import type { Clock } from "../clock.js";

/** The fingerprint as last read, and since when (clock ms) it has held. */
export type VersionState = { value: string; since: number };

/** Shared by the caches that keep answers while the data holds; read again every `everyMs`. */
export type DataVersion = {
  current(): Promise<VersionState>;
  /** What current() would give without a read (the last read is under `everyMs` old), else null. */
  recent(): VersionState | null;
};

/**
 * Reads the fingerprint of the data answers are built from (data/data-version.ts) at most once per
 * `everyMs` (one read in flight, shared by every caller), so a change shows within about `everyMs`.
 * A cache must capture the state before it loads, and keep what it loaded under that state: data
 * read after a change is then never kept under the old one's value for longer than one read.
 */
export const trackVersion = (read: () => Promise<string>, clock: Clock, everyMs: number): DataVersion => {
  let known: (VersionState & { checkAt: number }) | null = null;
  let reading: Promise<VersionState> | null = null;
  const recent = () => (known && clock.now() < known.checkAt ? known : null);
  return {
    recent,
    async current() {
      const fresh = recent();
      if (fresh) return fresh;
      reading ??= read()
        .then((value) => {
          const at = clock.now();
          known = { value, since: known?.value === value ? known.since : at, checkAt: at + everyMs };
          return known;
        })
        .finally(() => {
          reading = null;
        });
      return reading;
    },
  };
};
