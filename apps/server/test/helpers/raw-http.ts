import net from "node:net";

export type RawAnswer = {
  /** 0 when no status line came back. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The connection ended with an error (a reset) rather than a close. */
  error: string | null;
  /** Bytes of the request written before the connection ended, and bytes there were to write. */
  written: number;
  sent: number;
};

/** Splits the first HTTP/1.1 response found in `raw` (identity or chunked body). */
export const parseAnswer = (raw: string): Pick<RawAnswer, "status" | "headers" | "body"> => {
  const end = raw.indexOf("\r\n\r\n");
  if (!raw.startsWith("HTTP/1.1 ") || end === -1) return { status: 0, headers: {}, body: raw };
  const [statusLine = "", ...lines] = raw.slice(0, end).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.slice(end + 4);
  if (headers["transfer-encoding"] === "chunked") {
    let out = "";
    let rest = body;
    for (;;) {
      const lineEnd = rest.indexOf("\r\n");
      const size = Number.parseInt(rest.slice(0, lineEnd), 16);
      if (!(size > 0)) break;
      out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
      rest = rest.slice(lineEnd + 2 + size + 2);
    }
    body = out;
  } else if (headers["content-length"] !== undefined) {
    body = body.slice(0, Number(headers["content-length"]));
  }
  return { status: Number(statusLine.split(" ")[1]), headers, body };
};

/**
 * Writes `parts` to a fresh connection (each part once the previous is flushed, so a large body
 * goes out as a client would send it) and reads until the server closes or `idleMs` passes without
 * data. Write failures after the server answered are expected (it stops reading); they are kept in
 * `error` only when nothing was answered.
 */
export const rawRequest = (
  port: number,
  parts: Array<string | Buffer>,
  options: { idleMs?: number } = {},
): Promise<RawAnswer> =>
  new Promise((resolve) => {
    // Half-open, as curl and browsers are: an answer and FIN from the server do not stop our sending.
    const socket = net.connect({ port, host: "127.0.0.1", allowHalfOpen: true });
    const chunks: Buffer[] = [];
    let error: string | null = null;
    let written = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(idle);
      socket.destroy();
      const sent = parts.reduce((n, p) => n + (typeof p === "string" ? Buffer.byteLength(p) : p.length), 0);
      resolve({ ...parseAnswer(Buffer.concat(chunks).toString("latin1")), error, written, sent });
    };
    let idle = setTimeout(finish, options.idleMs ?? 3_000);
    socket.on("data", (chunk) => {
      chunks.push(chunk);
      clearTimeout(idle);
      idle = setTimeout(finish, options.idleMs ?? 3_000);
    });
    socket.on("error", (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
      finish();
    });
    socket.on("close", finish);
    const writeNext = (index: number) => {
      const part = parts[index];
      if (socket.destroyed) return;
      // All sent: our half closes, as a client's does once its request is out.
      if (part === undefined) return void socket.end();
      socket.write(part, (e) => {
        if (e) return;
        written += typeof part === "string" ? Buffer.byteLength(part) : part.length;
        writeNext(index + 1);
      });
    };
    socket.on("connect", () => writeNext(0));
  });
