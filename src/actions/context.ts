import { userInfo } from 'node:os';
import type { Connection } from 'mongoose';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { createPipelineContext, type PipelineContext } from '../pipeline/context.js';
import { actionModels, type ActionModels } from './models.js';

/**
 * What every requester action takes: the pipeline's context (models, crowd backends,
 * clock), the actions' own models, who acts (recorded in the audit log) and the target
 * used for a worker no batch knows.
 */
export interface ActionContext {
  pipeline: PipelineContext;
  models: ActionModels;
  /** `cli:<user>`, `api` or `console`. */
  who: string;
  defaultTarget: string;
}

export function createActionContext(opts: {
  pipeline: PipelineContext;
  connection: Connection;
  who: string;
  defaultTarget: string;
}): ActionContext {
  return { pipeline: opts.pipeline, models: actionModels(opts.connection), who: opts.who, defaultTarget: opts.defaultTarget };
}

/** The actions of a serving process (the REST routes or the console page), made on first use. */
export function lazyActionContext(
  app: { connection: Connection; config: Config; logger: Logger },
  who: 'api' | 'console',
): () => ActionContext {
  let context: ActionContext | undefined;
  return () =>
    (context ??= createActionContext({
      pipeline: createPipelineContext({
        connection: app.connection,
        config: app.config,
        logger: app.logger,
        progress: (line) => app.logger.info(line),
      }),
      connection: app.connection,
      who,
      defaultTarget: app.config.env.MTURK_TARGET,
    }));
}

/** `cli:<login name>` for the CLI's audit entries. */
export function cliActor(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return 'cli';
  }
}
