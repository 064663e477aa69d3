import { describe, expect, it } from "vitest";
import { authFailureWindow, clientOf } from "./auth-failures.js";

describe("clientOf", () => {
  it("is an IPv4 address as it is, a mapped one unwrapped", () => {
    expect(clientOf("203.0.113.7")).toBe("203.0.113.7");
    expect(clientOf("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(clientOf("::FFFF:203.0.113.7")).toBe("203.0.113.7");
  });

  it("is an IPv6 address's /64, however the address is written", () => {
    const client = "2001:db8:a:b::/64";
    expect(clientOf("2001:db8:a:b:1:2:3:4")).toBe(client);
    expect(clientOf("2001:0db8:000a:000b:ffff::1")).toBe(client);
    expect(clientOf("2001:DB8:A:B::")).toBe(client);
    expect(clientOf("2001:db8:a:b::9%eth0")).toBe(client);
    expect(clientOf("2001:db8:a:c::1")).not.toBe(client);
    expect(clientOf("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientOf("::1")).toBe("0:0:0:0::/64");
  });

  it("leaves anything else as it is", () => {
    expect(clientOf("unix-socket")).toBe("unix-socket");
  });
});

describe("authFailureWindow", () => {
  it("is the client's UTC minute", () => {
    const at = Date.UTC(2026, 0, 1, 12, 30, 45);
    const window = authFailureWindow("203.0.113.7", 60, at);
    expect(window).toMatchObject({ name: "minute", limit: 60, resetsAt: Date.UTC(2026, 0, 1, 12, 31) });
    expect(authFailureWindow("203.0.113.7", 60, at + 14_999).key).toBe(window.key);
    expect(authFailureWindow("203.0.113.7", 60, at + 15_000).key).not.toBe(window.key);
    expect(authFailureWindow("203.0.113.8", 60, at).key).not.toBe(window.key);
  });
});
