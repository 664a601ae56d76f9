// An OpenAI-compatible chat completions server for tests, on 127.0.0.1 port 0: the one place
// where a fake is right (the real peer is a third-party cloud). It speaks the wire format
// (`POST /v1/chat/completions`, bearer key, model check, OpenAI's answer and error shapes),
// records what it received, and behaves as the test says: a fixed answer, an echo of the
// user message, a delay, a hang, an error status, or a body that is not JSON.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Behaviour =
  /** A chat completion whose content is `text`. */
  | { kind: 'answer'; text: string }
  /** A chat completion whose content is the last user message it received. */
  | { kind: 'echo' }
  /** An OpenAI error body with this status (401, 429, 500…). */
  | { kind: 'status'; status: number; code?: string; message?: string; headers?: Record<string, string> }
  /** 200 with a body that is not JSON. */
  | { kind: 'malformed' }
  /** 200 with JSON that is not a chat completion. */
  | { kind: 'not-a-completion' }
  /** Never answers (the connection stays open until the server closes). */
  | { kind: 'hang' }
  /** Sends the status line and headers, then never the body. */
  | { kind: 'hang-body' };

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  headers: IncomingMessage['headers'];
  /** The parsed JSON body, or the raw text when it was not JSON. */
  body: unknown;
}

export interface ChatMessage {
  role: string;
  content: string;
}

export interface FakeOpenAi {
  /** The base URL to configure: `http://127.0.0.1:<port>/v1`. */
  readonly baseUrl: string;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** What the next requests get (until changed). */
  behaviour: Behaviour;
  /** Milliseconds to wait before answering. */
  delayMs: number;
  /** The key a request must bear (`Authorization: Bearer <key>`); null accepts any or none. */
  apiKey: string | null;
  /** Models it knows; others get OpenAI's 404 model_not_found. Empty: any model. */
  models: string[];
  /** The messages of a recorded request (its JSON body's `messages`). */
  messagesOf(request: RecordedRequest): ChatMessage[];
  close(): Promise<void>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function messagesIn(body: unknown): ChatMessage[] {
  if (!isRecord(body) || !Array.isArray(body['messages'])) return [];
  return body['messages'].filter(isRecord).map((m) => ({ role: String(m['role']), content: String(m['content']) }));
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function openAiError(res: ServerResponse, status: number, message: string, type: string, code: string | null, headers = {}): void {
  sendJson(res, status, { error: { message, type, param: null, code } }, headers);
}

let completionCounter = 0;

function completion(model: string, content: string) {
  completionCounter += 1;
  return {
    id: `chatcmpl-test${completionCounter}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    system_fingerprint: 'fp_test',
  };
}

export async function startFakeOpenAi(options: { apiKey?: string | null; models?: string[] } = {}): Promise<FakeOpenAi> {
  const requests: RecordedRequest[] = [];
  const state = {
    behaviour: { kind: 'echo' } as Behaviour,
    delayMs: 0,
    apiKey: options.apiKey === undefined ? 'sk-test-key' : options.apiKey,
    models: options.models ?? [],
  };
  const waits = new Set<NodeJS.Timeout>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // recorded as text
    }
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization, headers: req.headers, body });

    if (state.delayMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          waits.delete(timer);
          resolve();
        }, state.delayMs);
        waits.add(timer);
      });
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      openAiError(res, 404, `Unknown request URL: ${req.method} ${path}`, 'invalid_request_error', 'unknown_url');
      return;
    }
    if (state.apiKey !== null && req.headers.authorization !== `Bearer ${state.apiKey}`) {
      openAiError(res, 401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
      return;
    }
    if (!isRecord(body) || typeof body['model'] !== 'string' || !Array.isArray(body['messages'])) {
      openAiError(res, 400, 'The request needs a model and messages.', 'invalid_request_error', null);
      return;
    }
    const model = body['model'];
    if (state.models.length > 0 && !state.models.includes(model)) {
      openAiError(
        res,
        404,
        `The model \`${model}\` does not exist or you do not have access to it.`,
        'invalid_request_error',
        'model_not_found',
      );
      return;
    }
    const behaviour = state.behaviour;
    switch (behaviour.kind) {
      case 'answer':
        sendJson(res, 200, completion(model, behaviour.text));
        return;
      case 'echo': {
        const user = messagesIn(body).filter((m) => m.role === 'user');
        sendJson(res, 200, completion(model, user[user.length - 1]?.content ?? ''));
        return;
      }
      case 'status':
        openAiError(
          res,
          behaviour.status,
          behaviour.message ?? `Error ${behaviour.status}`,
          behaviour.status >= 500 ? 'server_error' : 'invalid_request_error',
          behaviour.code ?? null,
          behaviour.headers,
        );
        return;
      case 'malformed':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"id": "chatcmpl-broken", "choices": [');
        return;
      case 'not-a-completion':
        sendJson(res, 200, { hello: 'world' });
        return;
      case 'hang':
        return;
      case 'hang-body':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.flushHeaders();
        return;
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    get behaviour() {
      return state.behaviour;
    },
    set behaviour(value: Behaviour) {
      state.behaviour = value;
    },
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(value: number) {
      state.delayMs = value;
    },
    get apiKey() {
      return state.apiKey;
    },
    set apiKey(value: string | null) {
      state.apiKey = value;
    },
    get models() {
      return state.models;
    },
    set models(value: string[]) {
      state.models = value;
    },
    messagesOf: (request) => messagesIn(request.body),
    async close() {
      for (const timer of waits) clearTimeout(timer);
      waits.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
