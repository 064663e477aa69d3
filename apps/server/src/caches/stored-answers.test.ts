import { describe, expect, it } from "vitest";
import { storedAnswers } from "./stored-answers.js";

const record = (bytes: number, expiresAt = 10_000) => ({
  fingerprint: "f",
  expiresAt,
  response: { status: 200, headers: {}, body: Buffer.alloc(bytes) },
});

describe("storedAnswers", () => {
  it("keeps a stored answer until it expires, per organization and key", () => {
    const memo = storedAnswers();
    memo.set(1, "k", record(10));
    expect(memo.get(1, "k", 9_999)?.fingerprint).toBe("f");
    expect(memo.get(2, "k", 9_999)).toBeNull();
    expect(memo.get(1, "k", 10_000)).toBeNull();
    expect(memo.get(1, "k", 0)).toBeNull();
  });

  it("holds at most maxBytes of bodies, dropping the least recently used first", () => {
    const memo = storedAnswers(100);
    memo.set(1, "a", record(40));
    memo.set(1, "b", record(40));
    memo.get(1, "a", 0);
    memo.set(1, "c", record(40));
    expect(memo.get(1, "b", 0)).toBeNull();
    expect(memo.get(1, "a", 0)).not.toBeNull();
    expect(memo.get(1, "c", 0)).not.toBeNull();
    memo.set(1, "huge", record(101));
    expect(memo.get(1, "huge", 0)).toBeNull();
    expect(memo.get(1, "c", 0)).not.toBeNull();
  });
});
