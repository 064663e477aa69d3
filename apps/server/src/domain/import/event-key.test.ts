import { describe, expect, it } from "vitest";
import { eventKey, eventKeySource } from "./event-key.js";
import type { RedirectRecord, WatchRecord } from "./parse-line.js";

const redirect: RedirectRecord = {
  type: "redirect",
  eventId: null,
  gameId: 101,
  userId: "u1",
  occurredAt: "2026-11-20T10:00:00.000Z",
  day: "2026-11-20",
  condition: "cib",
  device: null,
};

describe("event keys", () => {
  it("write each field with its UTF-8 length, so no two field lists share a source", () => {
    expect(eventKeySource(redirect)).toBe("3:1012:u124:2026-11-20T10:00:00.000Z3:cib-");
    expect(eventKeySource({ ...redirect, userId: "é" })).toContain("2:é");
    // Text moved from one field into its neighbour changes the source.
    expect(eventKeySource({ ...redirect, userId: "u1c", condition: null })).not.toBe(
      eventKeySource({ ...redirect, userId: "u1", condition: "cib" }),
    );
  });

  it("are a UUID of the event_id when there is one, whatever the content", () => {
    const withId = { ...redirect, eventId: "mp-1" };
    expect(eventKey(withId)).toBe(eventKey({ ...withId, userId: "someone else" }));
    expect(eventKey(withId)).not.toBe(eventKey(redirect));
    expect(eventKey(redirect)).toMatch(/^[0-9a-f]{32}$/);
  });

  it("leave a watch's removal out: a removed alert is the same alert", () => {
    const watch: WatchRecord = {
      type: "watch",
      eventId: null,
      gameId: 7,
      userId: "w",
      createdAt: "2026-11-01T00:00:00.000Z",
      removedAt: null,
      condition: null,
    };
    expect(eventKey({ ...watch, removedAt: "2026-11-02T00:00:00.000Z" })).toBe(eventKey(watch));
  });
});
