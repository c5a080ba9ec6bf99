import { hostname } from 'node:os';

/**
 * Who holds a batch's collection-round lease: the process id and host of the holder, and
 * a random tag telling two holders in one process apart, stored as one string
 * `<pid>@<host>/<tag>` in the batch's `roundOwner`. When the holder's host is this one,
 * its liveness can be checked, so a lease left by a killed `qrelay review` is taken over
 * at once instead of after its ten minutes. Pure apart from `processAlive`.
 */

export interface RoundHolder {
  pid: number;
  host: string;
  tag: string;
}

export function formatHolder(h: RoundHolder): string {
  return `${h.pid}@${h.host}/${h.tag}`;
}

/** The holder named by a stored owner; undefined for a value in another form (an older qrelay's `<pid>-<tag>`). */
export function parseHolder(owner: string | null | undefined): RoundHolder | undefined {
  const m = owner ? /^(\d+)@(.+)\/([^/]+)$/.exec(owner) : null;
  if (!m) return undefined;
  return { pid: Number(m[1]), host: m[2]!, tag: m[3]! };
}

export function thisHolder(): RoundHolder {
  return { pid: process.pid, host: hostname(), tag: Math.random().toString(36).slice(2, 10) };
}

/** Whether a process with this id runs on this host (EPERM: it runs, under another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The holder of a lease that can be taken over now: one on this host whose process is
 * gone. A holder on another host, or in a form without host and pid, keeps its lease
 * until the lease runs out.
 */
export function goneHolder(owner: string | null | undefined, here: string, alive: (pid: number) => boolean): RoundHolder | undefined {
  const holder = parseHolder(owner);
  if (!holder || holder.host !== here) return undefined;
  return alive(holder.pid) ? undefined : holder;
}

/** How a busy lease's holder is named in messages. */
export function describeHolder(owner: string | null | undefined): string {
  const holder = parseHolder(owner);
  return holder ? `process ${holder.pid} on ${holder.host}` : 'another process';
}
