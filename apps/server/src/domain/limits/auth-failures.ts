import { isIPv4, isIPv6 } from "node:net";
import type { RateWindow } from "./windows.js";

const MINUTE_MS = 60_000;

/**
 * The client that failed authentications are counted against, from its address: an IPv4 address
 * as it is (an IPv4-mapped IPv6 address too), an IPv6 address by its /64. One IPv6 host is usually
 * given a whole /64, so counting single IPv6 addresses would let a client that picks a fresh one
 * for each request past any limit.
 */
export const clientOf = (ip: string): string => {
  const address = ip.replace(/%.*$/, "").toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address)?.[1];
  if (mapped) return mapped;
  if (isIPv4(address) || !isIPv6(address)) return address;
  const [head = "", tail = ""] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  // An embedded IPv4 tail (`64:ff9b::1.2.3.4`) is two groups; only the first four matter here.
  const missing = 8 - left.length - right.length;
  const groups = address.includes("::")
    ? [...left, ...Array(Math.max(0, missing)).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
};

/**
 * The window of a client's failed authentications: the UTC minute, as the plans' minute windows,
 * so one atomic check-and-increment in the rate-window store decides it (metering/auth-failures.ts).
 */
export const authFailureWindow = (client: string, limit: number, now: number): RateWindow => {
  const minute = Math.floor(now / MINUTE_MS);
  return { name: "minute", key: `authfail:${client}:m:${minute}`, limit, resetsAt: (minute + 1) * MINUTE_MS };
};
