/**
 * The simulation's agenda: events in order of their simulated time, ties in the order
 * they were scheduled (a binary heap; pure).
 */
export class Agenda<E> {
  private heap: { at: number; seq: number; event: E }[] = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  push(at: number, event: E): void {
    const h = this.heap;
    h.push({ at, seq: this.seq++, event });
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(i, p)) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }

  peek(): { at: number; event: E } | undefined {
    return this.heap[0];
  }

  pop(): { at: number; event: E } | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.before(l, m)) m = l;
        if (r < h.length && this.before(r, m)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return top;
  }

  clear(): void {
    this.heap = [];
  }

  private before(a: number, b: number): boolean {
    const x = this.heap[a]!;
    const y = this.heap[b]!;
    return x.at < y.at || (x.at === y.at && x.seq < y.seq);
  }
}
