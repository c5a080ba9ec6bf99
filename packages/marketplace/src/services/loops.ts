import type { Marketplace } from '../core.js';
import { isDomainError } from '../domain/errors.js';
import { autoApprovalsDue } from '../domain/hit.js';
import { saveClock } from '../store/clock-store.js';
import { deliverDue } from './delivery.js';
import { flushAllEvents } from './events.js';
import { settleHit } from './hit-writer.js';
import { approve, reconcileApprovals } from './reviews.js';

/**
 * The marketplace's background work, driven by its clock: abandoning overdue work,
 * expiring HITs, auto-approving submitted work, handing events to the outbox, finishing
 * paid approvals after a crash, delivering notifications. One tick at a time.
 */

export interface TickReport {
  settled: number;
  autoApproved: number;
  delivered: number;
}

export class BackgroundLoops {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<TickReport> | undefined;
  private readonly unpaid = new Set<string>();
  private lastClockSave = 0;

  constructor(
    private readonly mp: Marketplace,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(
      () => void this.tick().catch((err: unknown) => this.mp.logger.error({ err }, 'marketplace background tick failed')),
      this.intervalMs,
    );
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /** Runs one tick now (or waits for the one in progress). */
  tick(): Promise<TickReport> {
    this.running ??= this.work().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async work(): Promise<TickReport> {
    const mp = this.mp;
    const report: TickReport = { settled: 0, autoApproved: 0, delivered: 0 };
    for (const hitId of mp.hits.dueIds(mp.clock.nowMs())) {
      const hit = await settleHit(mp, hitId);
      report.settled++;
      for (const assignmentId of autoApprovalsDue(hit, mp.clock.now())) {
        try {
          await approve(mp, assignmentId, {});
          report.autoApproved++;
          this.unpaid.delete(assignmentId);
        } catch (err) {
          if (!this.unpaid.has(assignmentId)) {
            this.unpaid.add(assignmentId);
            mp.logger.warn({ assignmentId, err: isDomainError(err) ? err.message : err }, 'auto-approval failed; retrying on every tick');
          }
        }
      }
    }
    await flushAllEvents(mp);
    await reconcileApprovals(mp);
    report.delivered = await deliverDue(mp);
    if (Date.now() - this.lastClockSave > 5000) {
      this.lastClockSave = Date.now();
      await saveClock(mp.models, mp.clock);
    }
    return report;
  }
}
