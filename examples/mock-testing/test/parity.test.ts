import { readFileSync } from "node:fs";
import type { MockWorld } from "@gmi/sdk/msw";
import { describe, expect, it } from "vitest";
import { useGmiMocks } from "./gmi-mocks.js";
import type { Recording } from "./parity-requests.js";

/**
 * Parity with the server: fixtures/world.json is what `gmi export-mock-world` wrote from a server's
 * database, and fixtures/server-answers.json what that server answered (scripts/record-server.ts).
 * The mocks loaded with the world must answer every recorded request with the same status, content
 * type and body, byte for byte once parsed. Refresh both files together from your own staging
 * server, and your screens are tested on a copy of its figures.
 */
const read = <T>(file: string): T =>
  JSON.parse(readFileSync(new URL(`../fixtures/${file}`, import.meta.url), "utf8"));
const world = read<MockWorld>("world.json");
const recording = read<Recording>("server-answers.json");

// On the recorded server's own origin, so the links in the bodies compare as they are.
const gmi = useGmiMocks({ world, baseUrl: recording.origin, plan: recording.plan as "pro" });

describe(`the mocks on ${recording.date}'s world answer as the server did`, () => {
  it.each(recording.answers.map((answer) => [answer.path, answer] as const))(
    "GET %s",
    async (path, answer) => {
      const response = await fetch(`${gmi.baseUrl}${path}`, {
        headers: { authorization: "Bearer gmi_live_example" },
      });
      expect(response.status).toBe(answer.status);
      expect(response.headers.get("content-type")).toBe(answer.contentType);
      expect(await response.json()).toEqual(answer.body);
    },
  );
});
