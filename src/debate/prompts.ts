import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { paths } from '../paths.js';

/**
 * The prompt templates (prompts/README.md): one file per request kind, the system message
 * before the line `=== user ===`, the user message after it. Rendering is pure.
 */

export const TEMPLATE_FILES = {
  prefilter: 'prefilter.txt',
  firstRound: 'debate-round-1.txt',
  laterRound: 'debate-round-n.txt',
  adjudicator: 'adjudicator.txt',
} as const;
export type TemplateName = keyof typeof TEMPLATE_FILES;

export interface Template {
  file: string;
  system: string;
  user: string;
}
export type Templates = Record<TemplateName, Template>;

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

const SEPARATOR = /^=== user ===[ \t]*$/m;

/** Splits a template file's text into its system and user parts. */
export function parseTemplate(file: string, text: string): Template {
  const match = SEPARATOR.exec(text);
  if (!match)
    throw new UserError(`${file}: no line "=== user ===" separating the system message from the user message (see prompts/README.md)`);
  const system = text.slice(0, match.index).trim();
  const user = text.slice(match.index + match[0].length).trim();
  if (user === '') throw new UserError(`${file}: the user message after "=== user ===" is empty`);
  return { file, system, user };
}

export const defaultPromptsDir = (): string => join(paths.root, 'prompts');

/** Reads the four templates from `dir` (the bundled defaults when undefined). */
export async function loadTemplates(dir: string = defaultPromptsDir()): Promise<Templates> {
  const entries = await Promise.all(
    Object.entries(TEMPLATE_FILES).map(async ([name, fileName]) => {
      const file = join(dir, fileName);
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        throw new UserError(
          `--prompts: cannot read ${file} (${code === 'ENOENT' ? 'no such file' : String(code)}): the directory needs ${Object.values(TEMPLATE_FILES).join(', ')}`,
          { cause: err },
        );
      }
      return [name, parseTemplate(file, text)] as const;
    }),
  );
  return Object.fromEntries(entries) as Templates;
}

/** A short hash of the templates' texts, for provenance (`promptHash`). */
export function templateHash(...templates: Template[]): string {
  const h = createHash('sha256');
  for (const t of templates) h.update(`${t.system}\u0000${t.user}\u0000`);
  return h.digest('hex').slice(0, 16);
}

const PLACEHOLDER = /\{(agent1|agent2|agentA|agentB|agentA_reasoning|agentB_reasoning|query|answer|chunk|history|ground-truth answers)\}/g;
export type Placeholder =
  | 'agent1'
  | 'agent2'
  | 'agentA'
  | 'agentB'
  | 'agentA_reasoning'
  | 'agentB_reasoning'
  | 'query'
  | 'answer'
  | 'chunk'
  | 'history'
  | 'ground-truth answers';

/**
 * Fills the known placeholders in one pass (so a value holding braces is never filled
 * again); other braces, such as the output template's JSON, stay as they are.
 */
export function fill(text: string, values: Partial<Record<Placeholder, string>>): string {
  return text.replace(PLACEHOLDER, (whole, name: Placeholder) => values[name] ?? whole);
}

/** The chat messages of one request. */
export function render(template: Template, values: Partial<Record<Placeholder, string>>): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (template.system !== '') messages.push({ role: 'system', content: fill(template.system, values) });
  messages.push({ role: 'user', content: fill(template.user, values) });
  return messages;
}

/** The answers as the prompts list them: "1. first" one per line. */
export function numberedAnswers(answers: readonly string[]): string {
  return answers.length === 0 ? '(none given)' : answers.map((a, i) => `${i + 1}. ${a}`).join('\n');
}
