import type { TestProject } from "vitest/node";
import { startRealServer } from "./real-server.js";

declare module "vitest" {
  export interface ProvidedContext {
    e2e: { baseUrl: string; apiKey: string };
  }
}

/**
 * Global setup of the e2e project: the real server of this repository (see real-server.ts), or
 * GMI_E2E_BASE_URL + GMI_E2E_API_KEY to point the tests at a running server instead.
 */
export const setup = async (project: TestProject) => {
  if (process.env.GMI_E2E_BASE_URL && process.env.GMI_E2E_API_KEY) {
    project.provide("e2e", { baseUrl: process.env.GMI_E2E_BASE_URL, apiKey: process.env.GMI_E2E_API_KEY });
    return;
  }
  const { baseUrl, apiKey, stop } = await startRealServer();
  project.provide("e2e", { baseUrl, apiKey });
  return stop;
};
