import type { Connection } from 'mongoose';
import { mturkTarget, type Config, type MturkTarget } from '../config.js';
import type { RetryPolicy } from '../crowd/call-error.js';
import type { CrowdPlatform } from '../crowd/platform.js';
import { createCrowdPlatform, PROLIFIC_TARGET } from '../crowd/registry.js';
import { hostedServices } from '../tasks/store.js';
import { pipelineModels, type PipelineModels } from '../db/models/index.js';
import type { EscalatedCase } from '../domain/cases.js';
import { UserError } from '../errors.js';
import type { Logger } from '../log.js';
import { taskPageQuestion } from '../experiment/serve.js';

/**
 * What every stage takes: the database models, the crowd platform of a target, a logger,
 * a clock and a progress sink. Stages are plain async functions of this context, each
 * idempotent and resumable; the CLI calls them in-process, agenda jobs wrap them.
 */
export interface PipelineContext {
  models: PipelineModels;
  logger: Logger;
  now: () => Date;
  /**
   * `now()` reads a simulated marketplace's clock (the demo, `qrelay simulate`), hours ahead
   * of real time: records a person reads as real time (the audit log) take the wall clock,
   * and keep the simulated time in a field named so.
   */
  simulatedClock: boolean;
  /** The crowd platform for a target name (`local`, `sandbox`, `production` or a URL): src/crowd/platform.ts. */
  backend(target: string): CrowdPlatform;
  /** One line per step, for a person watching (the CLI prints them; jobs log them). */
  progress(line: string): void;
  /**
   * Item texts this process holds already, by item id (a simulation's copy, which wrote
   * them): `itemCases` answers from here rather than read the batch's texts again.
   */
  knownCases?: ReadonlyMap<string, EscalatedCase>;
  /** The debate experiment's Question of a HIT: an ExternalQuestion at its signed task page (src/experiment/serve.ts). */
  taskPageQuestion(task: { batch: string; index: number }, frameHeight: number): Promise<string>;
}

export interface PipelineContextOptions {
  connection: Connection;
  config: Config;
  logger: Logger;
  now?: () => Date;
  /** `now` is a simulated clock (see PipelineContext.simulatedClock); default false. */
  simulatedClock?: boolean;
  progress?: (line: string) => void;
  /** Retry policy of the crowd platform's calls (tests use short delays). */
  retry?: RetryPolicy;
  /** Told of every retried crowd call (throttled, service fault, network), after the log line. */
  onRetry?: (info: { operation: string; kind: string }) => void;
  /** Replaces target resolution (e.g. a platform already built). */
  backend?: (target: string) => CrowdPlatform;
}

export function parseTargetName(value: string, where = '--target'): string {
  if (value.trim() === PROLIFIC_TARGET) return PROLIFIC_TARGET;
  const parsed = mturkTarget.safeParse(value.trim());
  if (!parsed.success)
    throw new UserError(
      `${where}: expected local, sandbox, production or an http(s) URL, got ${JSON.stringify(value)} (or prolific for Prolific)`,
    );
  return parsed.data;
}

/** A checked target name: `prolific`, or an MTurk-compatible one. */
const checkedTarget = (value: string) => parseTargetName(value) as MturkTarget | typeof PROLIFIC_TARGET;

export function createPipelineContext(opts: PipelineContextOptions): PipelineContext {
  const backends = new Map<string, CrowdPlatform>();
  const makeBackend =
    opts.backend ??
    ((target: string) =>
      createCrowdPlatform(checkedTarget(target), opts.config, {
        ...(opts.retry && { retry: opts.retry }),
        // a platform linking to external pages reaches qrelay's task pages and records through these
        hosted: hostedServices(opts.connection, opts.config),
        onRetry: ({ operation, attempt, delayMs, kind }) => {
          opts.logger.debug({ operation, attempt, delayMs, kind }, 'retrying an MTurk call');
          opts.onRetry?.({ operation, kind });
        },
      }));
  return {
    models: pipelineModels(opts.connection),
    logger: opts.logger,
    now: opts.now ?? (() => new Date()),
    simulatedClock: opts.simulatedClock ?? false,
    progress: opts.progress ?? ((line) => opts.logger.info(line)),
    taskPageQuestion: (task, frameHeight) => taskPageQuestion(opts.connection, opts.config, task, frameHeight),
    backend(target) {
      let backend = backends.get(target);
      if (!backend) {
        backend = makeBackend(target);
        backends.set(target, backend);
      }
      return backend;
    },
  };
}
