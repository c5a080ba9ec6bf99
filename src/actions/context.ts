import { userInfo } from 'node:os';
import type { Connection } from 'mongoose';
import type { PipelineContext } from '../pipeline/context.js';
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

/** `cli:<login name>` for the CLI's audit entries. */
export function cliActor(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return 'cli';
  }
}
