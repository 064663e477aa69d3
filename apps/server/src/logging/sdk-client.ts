import type { IncomingHttpHeaders } from "node:http";

/** What a request says of the client that sent it, for the access line only. */
export type ClientIdentity = {
  /** `X-GMI-Client` as the SDK sends it (`gmi-sdk/1.0.0 node/24.1.0`), when it reads as one. */
  client: string | undefined;
  /** `X-GMI-Retry-Count`: which retry of one call this request is (1, 2, ...). */
  retry: number | undefined;
};

const MAX_CLIENT_LENGTH = 120;
/** Up to four `name/version` product tokens of plain characters: nothing a log reader could be fooled by. */
const CLIENT =
  /^[A-Za-z0-9._+-]{1,40}\/[A-Za-z0-9._+-]{1,40}( [A-Za-z0-9._+-]{1,40}\/[A-Za-z0-9._+-]{1,40}){0,3}$/;
const MAX_RETRY = 100;

const single = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? undefined : value;

/**
 * The SDK's identification headers, parsed and bounded: a value that does not read as the SDK's
 * (too long, other characters, a retry count out of range, a repeated header) is left out, never
 * logged as sent. Used for the log line and nothing else: no limit, metering or decision reads it.
 */
export const clientIdentity = (headers: IncomingHttpHeaders): ClientIdentity => {
  const client = single(headers["x-gmi-client"]);
  const retry = single(headers["x-gmi-retry-count"]);
  const count = retry !== undefined && /^[1-9][0-9]{0,2}$/.test(retry) ? Number(retry) : undefined;
  return {
    client:
      client !== undefined && client.length <= MAX_CLIENT_LENGTH && CLIENT.test(client) ? client : undefined,
    retry: count !== undefined && count <= MAX_RETRY ? count : undefined,
  };
};
