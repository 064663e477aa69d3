/**
 * Whether a parsed JSON value nests arrays and objects deeper than `max` levels. Iterative: a
 * hostile body ten thousand levels deep must not overflow the stack of whatever walks it next
 * (canonical JSON for an idempotency fingerprint, zod, the log).
 */
export const nestsDeeperThan = (value: unknown, max: number): boolean => {
  const stack: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { node, depth } = item;
    if (node === null || typeof node !== "object") continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(node)) stack.push({ node: child, depth: depth + 1 });
  }
  return false;
};
