/**
 * Where the API key lives: in memory by default, in this tab's sessionStorage only when the user
 * ticks "keep for this tab". Never localStorage, never a cookie, never sent anywhere but the API.
 */
export interface Credentials {
  apiKey: string;
  baseUrl: string;
}

const STORAGE_KEY = "gmi.credentials";

const storage = (): Storage | null => {
  try {
    return typeof sessionStorage === "undefined" ? null : sessionStorage;
  } catch {
    return null; // storage disabled by the browser's privacy settings
  }
};

export const loadCredentials = (): Credentials | null => {
  const raw = storage()?.getItem(STORAGE_KEY);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<Credentials>;
    return parsed.apiKey && parsed.baseUrl ? { apiKey: parsed.apiKey, baseUrl: parsed.baseUrl } : null;
  } catch {
    return null;
  }
};

export const saveCredentials = (credentials: Credentials, keep: boolean): void => {
  if (keep) storage()?.setItem(STORAGE_KEY, JSON.stringify(credentials));
  else storage()?.removeItem(STORAGE_KEY);
};

export const forgetCredentials = (): void => {
  storage()?.removeItem(STORAGE_KEY);
};

/** The API's address when the dashboard is served by the server itself (`/app`) or Vite's proxy. */
export const defaultBaseUrl = (): string =>
  typeof location === "undefined" ? "http://127.0.0.1:3000" : location.origin;
