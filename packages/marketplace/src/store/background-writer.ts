/**
 * How changes reach the database: before they show (`each`, every marketplace that serves
 * people), or after (`background`: a throwaway marketplace, such as a simulation's private
 * one, dropped before and after its run and read by nothing else meanwhile). Its answers are
 * the same either way (they come from memory); in the background, a crash loses the changes
 * not written yet.
 */
export type Writes = 'each' | 'background';

/**
 * Real milliseconds between a change and its write. A simulation's crowd runs hours of its
 * time in seconds, and each of its HITs changes at every accept, submit, return and
 * review: two seconds writes a HIT once for many of those changes, where a short delay
 * wrote it at almost every change (qrelay's docs/decisions/0003). A
 * crash loses more of the last changes, which is why only a throwaway marketplace writes
 * in the background.
 */
const BACKGROUND_WRITE_DELAY_MS = 2000;

/**
 * Writes what was changed in memory, by key, a moment after the change: the keys changed
 * meanwhile go in one call of `write` (up to `slice` keys a call; a key changed twice is
 * written once, as it is then), and while a call runs, the keys changed meanwhile go in the
 * next. A failed write is kept: `flush` and every later `add` throw it.
 */
export class BackgroundWriter {
  private readonly pending = new Set<string>();
  private writing: Promise<void> | undefined;
  private waiting: NodeJS.Timeout | undefined;
  private failure: { error: unknown } | undefined;

  constructor(
    /** Writes these keys' current state (throws when it could not). */
    private readonly write: (keys: string[]) => Promise<void>,
    /**
     * How long to wait after a change before writing (real ms): the changes of the requests
     * meanwhile (a simulated worker's accept and submit of the same HIT, a round's approvals)
     * then go in the same bulk write.
     */
    private readonly delayMs = BACKGROUND_WRITE_DELAY_MS,
    /** Keys one call writes at most (the dev database's launcher takes 50 statements a command). */
    private readonly slice = 50,
  ) {}

  add(key: string): void {
    if (this.failure) throw this.failure.error;
    this.pending.add(key);
    if (!this.writing) this.waiting ??= setTimeout(() => this.start(), this.delayMs);
  }

  /** Every change added so far is written (a failed write is thrown). */
  async flush(): Promise<void> {
    this.start();
    while (this.writing) await this.writing;
    if (this.failure) throw this.failure.error;
  }

  private start(): void {
    clearTimeout(this.waiting);
    this.waiting = undefined;
    if (this.pending.size > 0) this.writing ??= this.run();
  }

  private async run(): Promise<void> {
    try {
      while (this.pending.size > 0) {
        const keys = [...this.pending];
        this.pending.clear();
        for (let i = 0; i < keys.length; i += this.slice) await this.write(keys.slice(i, i + this.slice));
      }
    } catch (error) {
      this.failure = { error };
    } finally {
      this.writing = undefined;
    }
  }
}

/**
 * Documents held in memory until a BackgroundWriter writes them, by `_id`: `get` answers one
 * held and not written yet (its store reads the database otherwise). `write` gets the
 * documents as they are now; one stored again meanwhile stays held for the next write.
 */
export class HeldDocuments<D extends { _id: string }> {
  private readonly held = new Map<string, D>();
  private readonly writer: BackgroundWriter;

  constructor(write: (docs: D[]) => Promise<void>) {
    this.writer = new BackgroundWriter(async (ids) => {
      const docs = ids.map((id) => this.held.get(id)!);
      await write(docs);
      for (const d of docs) if (this.held.get(d._id) === d) this.held.delete(d._id);
    });
  }

  /** Holds the document (a failed earlier write is thrown first, and nothing is held). */
  add(doc: D): void {
    this.writer.add(doc._id);
    this.held.set(doc._id, doc);
  }

  get(id: string): D | undefined {
    return this.held.get(id);
  }

  /** Every document held so far is written (a failed write is thrown). */
  flush(): Promise<void> {
    return this.writer.flush();
  }
}
