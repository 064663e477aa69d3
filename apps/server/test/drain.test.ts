import type { AddressInfo } from "node:net";
import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "./helpers/app.js";
import { useTestDatabase } from "./helpers/setup.js";

const db = useTestDatabase({ catalog: false });

/** Writes raw HTTP/1.1 on one connection and collects what comes back until the server closes it. */
const connection = (port: number) => {
  const socket = net.connect(port, "127.0.0.1");
  let received = "";
  socket.on("data", (chunk) => {
    received += chunk.toString("latin1");
  });
  const closed = new Promise<string>((resolve) => socket.on("close", () => resolve(received)));
  return { socket, closed, received: () => received };
};

/** Status and headers of each response, in order (bodies are not newline-terminated). */
const responses = (raw: string) =>
  [...raw.matchAll(/HTTP\/1\.1 (\d{3})[^\r]*\r\n([\s\S]*?)\r\n\r\n/g)].map((m) => ({
    status: Number(m[1]),
    connection: /^connection: (.*)$/im
      .exec(m[2] ?? "")?.[1]
      ?.trim()
      .toLowerCase(),
  }));

describe("draining on shutdown (app.close, as SIGTERM does)", () => {
  let test: TestApp | undefined;
  afterAll(async () => test?.close());

  it("finishes the request in flight and answers the next one on its connection, then refuses new connections", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered = () => {};
    const inFlight = new Promise<void>((resolve) => {
      entered = resolve;
    });
    test = await startTestApp(db().pool, {
      extend: (app) =>
        app.get("/test/slow", async () => {
          entered();
          await held;
          return { done: true };
        }),
    });
    await test.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = test.app.server.address() as AddressInfo;

    const client = connection(port);
    client.socket.write("GET /test/slow HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n");
    await inFlight;
    const closing = test.app.close();
    // The next request of a proxy's kept-alive connection, arriving once draining has begun.
    client.socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n");
    await new Promise((resolve) => setTimeout(resolve, 50));

    // A new connection is refused: a proxy retries that on another replica, whatever the method.
    const refused = await new Promise<boolean>((resolve) => {
      const probe = net.connect(port, "127.0.0.1");
      probe.on("connect", () => {
        probe.destroy();
        resolve(false);
      });
      probe.on("error", () => resolve(true));
    });
    expect(refused).toBe(true);

    release();
    const raw = await client.closed;
    await closing;
    // The request that arrived during the drain is answered (not 503) and tells the client to close,
    // so the connection does not outlive the drain.
    expect(responses(raw)).toEqual([
      { status: 200, connection: "keep-alive" },
      { status: 200, connection: "close" },
    ]);
    expect(raw).toContain('{"done":true}');
    expect(raw).toContain('{"status":"ok"}');
    test = undefined;
  });
});
