import { GmiClient, type RateLimit } from "@gmi/sdk";
import { createContext, type ReactNode, useContext, useMemo, useSyncExternalStore } from "react";
import type { Credentials } from "./session.js";

/** The last rate-limit headers any answer carried: the account page and the header show them live. */
export class RateLimitStore {
  private value: RateLimit | undefined;
  private readonly listeners = new Set<() => void>();
  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  readonly get = () => this.value;
  set(value: RateLimit | undefined) {
    if (!value) return;
    this.value = value;
    for (const listener of this.listeners) listener();
  }
}

interface Api {
  client: GmiClient;
  rateLimit: RateLimitStore;
  signOut: () => void;
}

const ApiContext = createContext<Api | null>(null);

/**
 * One client per key, retrying nothing itself: a 429 is shown with its countdown and retried by the
 * page when it ends, a 5xx is shown with a "Try again" button, so the user always sees why nothing
 * moves instead of a spinner that waits out a minute's limit.
 */
export const createClient = (credentials: Credentials, rateLimit: RateLimitStore, fetchImpl?: typeof fetch) =>
  new GmiClient({
    apiKey: credentials.apiKey,
    baseUrl: credentials.baseUrl,
    maxRetries: 0,
    maxRetryAfterMs: 0,
    timeoutMs: 15_000,
    // The key is the one this page's user pasted: theirs to expose to their own browser.
    dangerouslyAllowBrowser: true,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
    onResponse: (info) => rateLimit.set(info.rateLimit),
  });

export const ApiProvider = (props: {
  credentials: Credentials;
  signOut: () => void;
  children: ReactNode;
}) => {
  const { credentials, signOut } = props;
  const api = useMemo(() => {
    const rateLimit = new RateLimitStore();
    return { client: createClient(credentials, rateLimit), rateLimit, signOut };
  }, [credentials, signOut]);
  return <ApiContext.Provider value={api}>{props.children}</ApiContext.Provider>;
};

export const useApi = (): Api => {
  const api = useContext(ApiContext);
  if (!api) throw new Error("useApi outside ApiProvider");
  return api;
};

export const useRateLimit = (): RateLimit | undefined => {
  const { rateLimit } = useApi();
  return useSyncExternalStore(rateLimit.subscribe, rateLimit.get);
};
