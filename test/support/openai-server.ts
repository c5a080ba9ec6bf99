import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server speaking the OpenAI chat-completions protocol
 * (`POST /v1/chat/completions`), scripted per request: answers in any format, HTTP errors
 * with Retry-After, slow answers, and `usage` tokens. It counts every request and every
 * answered one by a hash of what was asked, so that tests can see what was asked twice.
 */

export interface ChatRequest {
  model: string;
  temperature: number | undefined;
  messages: { role: string; content: string }[];
  /** Who is asked, from the prompt: Agent A or B in a debate, the prefilter, the adjudicator. */
  role: 'A' | 'B' | 'prefilter' | 'adjudicator' | 'unknown';
  /** Debate round: 1 when the history states the initial stances, else 2+ (counted from "(round n)" marks). */
  round: number;
  /** The text inside <query>...</query> (or after QUERY:). */
  query: string;
  /** 0 for a first ask; n for the n-th re-ask after an unreadable answer. */
  reask: number;
  key: string;
}

export type Reply =
  | { kind: 'json'; object: unknown; wrap?: 'plain' | 'fence' | 'prose' }
  | { kind: 'text'; content: string }
  | { kind: 'status'; status: number; retryAfter?: string; message?: string }
  | { kind: 'hang' }
  /** A 200 whose body is `body` as it stands (e.g. JSON cut short). */
  | { kind: 'raw'; body: string }
  /** A 200 streaming `bytes` bytes of an endless JSON string, with no Content-Length (chunked). */
  | { kind: 'flood'; bytes: number };

export interface ScriptedReply {
  reply: Reply;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
  usage?: { prompt_tokens: number; completion_tokens: number };
}

export type Script = (req: ChatRequest, attemptOfKey: number) => ScriptedReply;

/** `{reference, reason, response}` as the templates ask for. */
export const agentJson = (response: string, reason = `because ${response}`, reference: string[] = []) => ({ reference, reason, response });

function parseRequest(body: Record<string, unknown>): ChatRequest {
  const messages = (body.messages as { role: string; content: string }[]) ?? [];
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const firstUser = messages.find((m) => m.role === 'user')?.content ?? '';
  let role: ChatRequest['role'] = 'unknown';
  if (/ADJUDICATOR/.test(system)) role = 'adjudicator';
  else if (/^You are Agent A\b/.test(system)) role = 'A';
  else if (/^You are Agent B\b/.test(system)) role = 'B';
  else if (/is_supported/.test(firstUser)) role = 'prefilter';
  const query = (/<query>\s*([\s\S]*?)\s*<\/query>/.exec(firstUser)?.[1] ?? /QUERY: (.*)/.exec(firstUser)?.[1] ?? '').trim();
  const history = /<history>([\s\S]*?)<\/history>/.exec(firstUser)?.[1] ?? '';
  const marks = [...history.matchAll(/\(round (\d+)\)/g)].map((m) => Number(m[1]));
  const round =
    /The chunk contains complete information to construct at least one answer to the target query\. Agent B: No\. The chunk does not contain/.test(
      history,
    )
      ? 1
      : marks.length > 0
        ? Math.max(...marks) + 1
        : 2;
  const reask = messages.filter((m) => m.role === 'assistant').length;
  const key = createHash('sha256')
    .update(JSON.stringify([body.model, body.temperature, messages]))
    .digest('hex');
  return { model: String(body.model), temperature: body.temperature as number | undefined, messages, role, round, query, reask, key };
}

function content(reply: Extract<Reply, { kind: 'json' | 'text' }>): string {
  if (reply.kind === 'text') return reply.content;
  const json = JSON.stringify(reply.object);
  if (reply.wrap === 'fence') return `\`\`\`json\n${json}\n\`\`\``;
  if (reply.wrap === 'prose') return `Here is my assessment.\n${json}\nI hope this helps.`;
  return json;
}

export interface OpenAiServer {
  url: string;
  /** Every request received, in order. */
  received: ChatRequest[];
  /** Requests answered with 200, in order of answering. */
  answered: ChatRequest[];
  /** Usage sent with the 200 answers, summed. */
  usageSent: { prompt_tokens: number; completion_tokens: number };
  /** How many times each key was answered with 200. */
  answeredCount(key: string): number;
  /** Called on each received request (before it is answered). */
  onRequest?: (req: ChatRequest, n: number) => void;
  /** Stop answering: requests from now on wait forever (until close). */
  freeze(): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startOpenAiServer(script: Script): Promise<OpenAiServer> {
  const attempts = new Map<string, number>();
  const answeredByKey = new Map<string, number>();
  const hanging = new Set<ServerResponse>();
  let frozen = false;
  const state: OpenAiServer = {
    url: '',
    received: [],
    answered: [],
    usageSent: { prompt_tokens: 0, completion_tokens: 0 },
    answeredCount: (key) => answeredByKey.get(key) ?? 0,
    freeze: () => {
      frozen = true;
    },
    reset: () => {
      state.received = [];
      state.answered = [];
      state.usageSent = { prompt_tokens: 0, completion_tokens: 0 };
      answeredByKey.clear();
      attempts.clear();
      frozen = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error' } }));
      return;
    }
    const request = parseRequest(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
    state.received.push(request);
    state.onRequest?.(request, state.received.length);
    if (frozen) {
      hanging.add(res);
      return;
    }
    const attempt = attempts.get(request.key) ?? 0;
    attempts.set(request.key, attempt + 1);
    const scripted = script(request, attempt);
    if (scripted.delayMs) await new Promise((r) => setTimeout(r, scripted.delayMs));
    if (frozen) {
      hanging.add(res);
      return;
    }
    const { reply } = scripted;
    if (reply.kind === 'hang') {
      hanging.add(res);
      return;
    }
    if (reply.kind === 'raw') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(reply.body);
      return;
    }
    if (reply.kind === 'flood') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":"chatcmpl-flood","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"');
      const chunk = 'x'.repeat(64 * 1024);
      for (let sent = 0; sent < reply.bytes && !res.destroyed; sent += chunk.length) {
        // wait for the socket to drain: the client may stop reading long before the end
        if (!res.write(chunk))
          await new Promise<void>((resolve) => {
            const go = () => {
              res.off('drain', go).off('close', go);
              resolve();
            };
            res.once('drain', go).once('close', go);
          });
      }
      res.end('"}}]}');
      return;
    }
    if (reply.kind === 'status') {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (reply.retryAfter !== undefined) headers['retry-after'] = reply.retryAfter;
      res
        .writeHead(reply.status, headers)
        .end(JSON.stringify({ error: { message: reply.message ?? `status ${reply.status}`, type: 'scripted' } }));
      return;
    }
    const usage = scripted.usage ?? { prompt_tokens: 100 + request.messages.length, completion_tokens: 20 };
    state.usageSent.prompt_tokens += usage.prompt_tokens;
    state.usageSent.completion_tokens += usage.completion_tokens;
    state.answered.push(request);
    answeredByKey.set(request.key, (answeredByKey.get(request.key) ?? 0) + 1);
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `chatcmpl-${state.answered.length}`,
        object: 'chat.completion',
        created: 1_700_000_000,
        model: request.model,
        choices: [{ index: 0, message: { role: 'assistant', content: content(reply) }, finish_reason: 'stop' }],
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      }),
    );
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      res.writeHead(500).end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return state;
}
