import type { Connection } from 'mongoose';
import { pipelineModels, type BatchDoc, type HitQuestionDoc } from '../db/models/index.js';
import type { ArmName } from './compare.js';
import type { Config } from '../config.js';
import { taskModels, taskPath, taskSecret, taskSignature } from '../tasks/store.js';
import { externalQuestionXml, pageArm, type Visitor } from './pages.js';
import { arriveInExperiment, experimentModels } from './store.js';

/**
 * The question (HTMLQuestion XML) of a debate-experiment HIT for this visitor (docs/experiment.md, "Routing"): a
 * worker who accepted is given their arm (recorded first, on their first page of the batch)
 * and the page of that arm; a preview gets the page without the debate. Undefined when the
 * HIT is not in an experiment (its question has one page), so the caller serves that page.
 */
export async function experimentQuestionXml(
  connection: Connection,
  hit: { batch: string; index: number },
  question: HitQuestionDoc,
  visitor: Visitor,
): Promise<string | undefined> {
  if (question.withoutDebateXml === undefined) return undefined;
  let arm: ArmName | undefined;
  if (visitor.kind === 'worker') {
    const batch = await pipelineModels(connection).batches.findById(hit.batch).lean<BatchDoc>();
    if (batch?.settings?.experiment !== 'debate') return undefined;
    const recorded = await arriveInExperiment(experimentModels(connection), {
      batch: hit.batch,
      seed: batch.settings.seed,
      workerId: visitor.workerId,
      hit: hit.index,
      now: new Date(),
    });
    arm = recorded.arm;
  }
  return pageArm(visitor, arm) === 'debate' ? question.xml : question.withoutDebateXml;
}

/**
 * The Question an experiment batch's HIT is created with on MTurk (and the bundled
 * marketplace): an ExternalQuestion at the HIT's signed task page on qrelay
 * (`QRELAY_PUBLIC_URL`, which workers must reach: HTTPS on MTurk).
 */
export async function taskPageQuestion(
  connection: Connection,
  config: Config,
  task: { batch: string; index: number },
  frameHeight: number,
): Promise<string> {
  const secret = await taskSecret(taskModels(connection));
  return externalQuestionXml(`${config.publicUrl}${taskPath(task)}?sig=${taskSignature(secret, task)}`, frameHeight);
}
