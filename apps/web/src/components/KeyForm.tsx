import { type FormEvent, useState } from "react";
import { type Credentials, defaultBaseUrl } from "../session.js";

/**
 * Asks for the API key. It stays in this page's memory unless "keep for this tab" is ticked
 * (sessionStorage: gone when the tab closes); it is only ever sent to the API address below.
 */
export const KeyForm = (props: { onSubmit: (credentials: Credentials, keep: boolean) => void }) => {
  const [apiKey, setApiKey] = useState("");
  const [baseUrl, setBaseUrl] = useState(defaultBaseUrl);
  const [keep, setKeep] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const key = apiKey.trim();
    if (!key) return setProblem("Enter your API key.");
    let url: URL;
    try {
      url = new URL(baseUrl.trim());
    } catch {
      return setProblem("The API address must be a URL such as https://api.example.com.");
    }
    props.onSubmit({ apiKey: key, baseUrl: url.origin }, keep);
  };
  return (
    <form className="key-form" onSubmit={submit} aria-labelledby="key-title" noValidate>
      <h2 id="key-title">Sign in with your API key</h2>
      <label>
        API key
        <input
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder="gmi_live_…"
          value={apiKey}
          onChange={(e) => setApiKey(e.target.value)}
          aria-invalid={problem !== null || undefined}
          aria-describedby={problem ? "key-problem" : undefined}
        />
      </label>
      <label>
        API address
        <input type="url" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} />
      </label>
      <label className="check">
        <input type="checkbox" checked={keep} onChange={(e) => setKeep(e.target.checked)} /> Keep the key for
        this tab (until it closes)
      </label>
      {problem ? (
        <p id="key-problem" className="problem" role="alert">
          {problem}
        </p>
      ) : null}
      <button type="submit">Open the dashboard</button>
      <p className="meta">The key is sent only to the API address above, never stored on a server.</p>
    </form>
  );
};
