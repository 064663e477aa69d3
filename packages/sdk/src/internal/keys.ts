/** A fresh idempotency key: a UUID where the runtime has `crypto.randomUUID` (all current ones do). */
export const newIdempotencyKey = (): string => {
  const uuid = globalThis.crypto?.randomUUID?.();
  if (uuid) return `gmi-${uuid}`;
  const part = () => Math.random().toString(36).slice(2, 12);
  return `gmi-${Date.now().toString(36)}-${part()}${part()}`;
};
