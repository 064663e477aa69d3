import { CODE_TO_STATUS, type ErrorCode } from "@gmi/contract";

// What a resolver answers, and the error envelope (what it is handed: resolver.ts).

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Usage units (batch items); 1 by default. */
  units?: number;
  /** `body` is the answer's text as stored (a replay), sent byte for byte. */
  raw?: boolean;
}

/** The error envelope with the status its code always has. */
export const errorReply = (
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
  headers?: Record<string, string>,
): Reply => ({
  status: CODE_TO_STATUS[code],
  body: { error: details === undefined ? { code, message } : { code, message, details } },
  ...(headers ? { headers } : {}),
});

export const issuesOf = (
  location: "query" | "path" | "body" | "header",
  issues: Array<{ path: Array<string | number>; message: string }>,
) => ({
  issues: issues.map((issue) => ({ location, field: issue.path.join("."), message: issue.message })),
});
