/** Milliseconds since the epoch. Injected everywhere time matters so tests can move it. */
export type Clock = { now(): number };

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests set and advance by hand. */
export type ManualClock = Clock & { set(ms: number): void; advance(ms: number): void };

export const manualClock = (start: number | Date = Date.now()): ManualClock => {
  let current = typeof start === "number" ? start : start.getTime();
  return {
    now: () => current,
    set: (ms) => {
      current = ms;
    },
    advance: (ms) => {
      current += ms;
    },
  };
};
