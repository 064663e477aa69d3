import type { Answer, Req } from "./scenario.js";

/** The Authorization header a request carries, from the scenario's keys. */
const authorization = (tokens: Record<string, string>, request: Req): string | undefined => {
  const key = request.key === undefined ? "main" : request.key;
  if (key === null) return undefined;
  if (typeof key === "object") return key.header;
  const token = tokens[key];
  if (token === undefined) throw new Error(`the scenario has no key named ${key}`);
  return `Bearer ${token}`;
};

/** The request's URL under `baseUrl`, its query appended in the order written. */
export const urlOf = (baseUrl: string, request: Req): string => {
  const query = new URLSearchParams(request.query ?? {}).toString();
  return `${baseUrl}${request.path}${query ? `?${query}` : ""}`;
};

/** Sends one request with fetch (msw intercepts it for the mock side) and reads the whole answer. */
export const sendOver = async (
  baseUrl: string,
  tokens: Record<string, string>,
  request: Req,
): Promise<Answer> => {
  const headers: Record<string, string> = {};
  const auth = authorization(tokens, request);
  if (auth !== undefined) headers.authorization = auth;
  let body: string | undefined;
  if (request.rawBody !== undefined) body = request.rawBody;
  else if (request.body !== undefined) {
    body = JSON.stringify(request.body);
    headers["content-type"] = "application/json";
  }
  Object.assign(headers, request.headers);
  let response: Response;
  try {
    response = await fetch(urlOf(baseUrl, request), {
      method: request.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      ...(body === undefined ? {} : { body }),
    });
  } catch (error) {
    // No answer at all (a mock without a handler for the path): a difference, not a crash.
    return { status: 0, headers: {}, body: `no answer: ${(error as Error).message}` };
  }
  const answerHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    answerHeaders[name.toLowerCase()] = value;
  });
  return { status: response.status, headers: answerHeaders, body: await response.text() };
};
