import { createHash } from 'node:crypto';
import { closeSync, fdatasyncSync, fstatSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { ChatMessage } from './prompts.js';

/**
 * The run's memory: an append-only file of answered requests, each line written and
 * fdatasync'ed before the answer is used, keyed by a hash of everything the request sends
 * (model, temperature, messages). A restarted run finds every answered request here and
 * never sends it again; a changed template or model changes the key, so another run's
 * answers are never reused. A line cut short by a crash (the last one) is dropped at open.
 */

export interface Usage {
  promptTokens: number;
  completionTokens: number;
}

export interface JournalEntry {
  key: string;
  model: string;
  content: string;
  usage: Usage;
}

export interface RequestSpec {
  model: string;
  temperature: number;
  messages: readonly ChatMessage[];
}

export function requestKey(spec: RequestSpec): string {
  return createHash('sha256')
    .update(JSON.stringify([spec.model, spec.temperature, spec.messages]))
    .digest('hex');
}

function isEntry(value: unknown): value is JournalEntry {
  const v = value as Partial<JournalEntry> | null;
  return (
    typeof v?.key === 'string' &&
    typeof v.content === 'string' &&
    typeof v.usage?.promptTokens === 'number' &&
    typeof v.usage.completionTokens === 'number'
  );
}

export class Journal {
  private readonly entries = new Map<string, JournalEntry>();
  private readonly fd: number;
  private closed = false;

  constructor(readonly file: string) {
    this.fd = openSync(file, 'a+');
    const text = readFileSync(file, 'utf8');
    const complete = text.lastIndexOf('\n') + 1;
    if (complete < Buffer.byteLength(text)) {
      // The tail after the last newline is a line a crash cut short: drop it.
      ftruncateSync(this.fd, Buffer.byteLength(text.slice(0, complete)));
      fdatasyncSync(this.fd);
    }
    for (const line of text.slice(0, complete).split('\n')) {
      if (line.trim() === '') continue;
      try {
        const value: unknown = JSON.parse(line);
        if (isEntry(value)) this.entries.set(value.key, value);
      } catch {
        // a damaged line is ignored: its request is simply asked again
      }
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): JournalEntry | undefined {
    return this.entries.get(key);
  }

  /** Stores an answer durably (written and synced) before it is used. */
  append(entry: JournalEntry): void {
    if (this.closed) throw new Error('the journal is closed');
    const line = Buffer.from(`${JSON.stringify(entry)}\n`);
    let written = 0;
    while (written < line.length) written += writeSync(this.fd, line, written);
    fdatasyncSync(this.fd);
    this.entries.set(entry.key, entry);
  }

  bytes(): number {
    return fstatSync(this.fd).size;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}
