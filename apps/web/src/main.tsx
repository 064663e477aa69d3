import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App.js";
import type { Credentials } from "./session.js";
import { loadCredentials } from "./session.js";
import "./styles.css";

const start = async () => {
  const root = document.getElementById("root");
  if (!root) return;
  let initial: Credentials | null | undefined;
  // `pnpm dev:web --mock`: Vite's `mock` mode. Anywhere else this branch is removed at build time,
  // and msw with it (apps/web/test/build.test.ts checks the production build).
  if (import.meta.env.MODE === "mock") {
    const { startMockApi } = await import("./mock/start.js");
    const { MockPanel } = await import("./mock/MockPanel.js");
    const mock = await startMockApi();
    initial = loadCredentials() ?? mock.credentials;
    const panel = document.body.appendChild(document.createElement("div"));
    createRoot(panel).render(<MockPanel settings={mock.settings} />);
  }
  createRoot(root).render(
    <StrictMode>
      <App initial={initial} />
    </StrictMode>,
  );
};
void start();
