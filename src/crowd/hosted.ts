/**
 * What a platform that links to external pages (Prolific) needs of qrelay beyond its API:
 * the task pages qrelay hosts (`GET /tasks/...`, src/tasks/), the answers submitted there,
 * and a durable memory of its own (work types, bonus requests recorded before they are
 * paid). The pipeline builds them over the database and hands them to the registry; the
 * platform never reads the database itself.
 */

/** A task (HIT) of a batch, as qrelay's task pages know it. */
export interface HostedTask {
  batch: string;
  /** The HIT's index in the batch. */
  index: number;
}

export interface HostedTaskPages {
  /** The signed address of the task's page and the completion code its participants are sent back with. */
  page(task: HostedTask): Promise<{ url: string; completionCode: string }>;
  /** The QuestionFormAnswers XML submitted on the task pages, by session (the platform's submission id). */
  answers(sessionIds: readonly string[]): Promise<Map<string, string>>;
}

/** Small records a platform keeps in qrelay's database, by key; `write` replaces. */
export interface PlatformMemory {
  read(key: string): Promise<unknown>;
  write(key: string, value: Record<string, unknown>): Promise<void>;
}

export interface HostedServices {
  pages: HostedTaskPages;
  memory: PlatformMemory;
}

/**
 * Where a Prolific participant finishes: the site's `/submissions/complete?cc=<code>`, at
 * `https://app.prolific.com` for Prolific's API, else the API's address without `/api/v1`
 * (the bundled marketplace's `/prolific`).
 */
export function prolificCompletionUrl(apiUrl: string, code: string): string {
  const base = apiUrl.replace(/\/+$/, '');
  const host = new URL(base).hostname;
  const site = host === 'api.prolific.com' || host === 'api.prolific.co' ? 'https://app.prolific.com' : base.replace(/\/api\/v1$/, '');
  return `${site}/submissions/complete?cc=${encodeURIComponent(code)}`;
}
