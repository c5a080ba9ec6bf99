import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import type { Config } from '../config.js';
import { prolificCompletionUrl, type HostedServices, type HostedTask } from '../crowd/hosted.js';
import { model } from '../db/models/index.js';

/**
 * qrelay's task pages' records (the dev database: every filter by `_id` alone).
 *
 * | collection | `_id` | holds |
 * |---|---|---|
 * | task_keys | `hmac` | the secret that signs task links and derives completion codes (made once) |
 * | task_sessions | the platform's session id (Prolific's SESSION_ID, its submission id) | the HIT it was given, participant, study, the answers once submitted |
 * | platform_memory | a platform's key (`worktype:…`, `bonus:<token>`, `block:<worker>`) | the platform's own small records (src/crowd/hosted.ts) |
 */

export interface TaskSessionDoc {
  _id: string;
  batch: string;
  index: number;
  study: string;
  participant: string;
  startedAt: Date;
  /** QuestionFormAnswers XML, as MTurk would return it; null until submitted. */
  answerXml: string | null;
  submittedAt: Date | null;
}

interface KeyDoc {
  _id: string;
  secret: string;
}

interface MemoryDoc {
  _id: string;
  value: Record<string, unknown>;
  updatedAt: Date;
}

const opts = (collection: string) => ({ collection, versionKey: false as const, minimize: false });

const keySchema = new Schema<KeyDoc>({ _id: String, secret: { type: String, required: true } }, opts('task_keys'));
const sessionSchema = new Schema<TaskSessionDoc>(
  {
    _id: String,
    batch: { type: String, required: true },
    index: { type: Number, required: true },
    study: { type: String, required: true },
    participant: { type: String, required: true },
    startedAt: { type: Date, required: true },
    answerXml: { type: String, default: null },
    submittedAt: { type: Date, default: null },
  },
  opts('task_sessions'),
);
const memorySchema = new Schema<MemoryDoc>(
  { _id: String, value: { type: Schema.Types.Mixed, required: true }, updatedAt: Date },
  opts('platform_memory'),
);

export interface TaskModels {
  keys: Model<KeyDoc>;
  sessions: Model<TaskSessionDoc>;
  memory: Model<MemoryDoc>;
}

export function taskModels(connection: Connection): TaskModels {
  return {
    keys: model(connection, 'TaskKey', keySchema),
    sessions: model(connection, 'TaskSession', sessionSchema),
    memory: model(connection, 'PlatformMemory', memorySchema),
  };
}

/** The signing secret, made by the first process that needs it (every later one reads the same). */
export async function taskSecret(models: TaskModels): Promise<string> {
  const known = await models.keys.findById('hmac').lean<KeyDoc>();
  if (known) return known.secret;
  try {
    await models.keys.create({ _id: 'hmac', secret: randomBytes(32).toString('base64url') });
  } catch (err) {
    // another process made it first: everyone uses that one
    if (!isDuplicateKey(err)) throw err;
  }
  const made = await models.keys.findById('hmac').lean<KeyDoc>();
  if (!made) throw new Error('task_keys: the signing secret could not be stored');
  return made.secret;
}

export const isDuplicateKey = (err: unknown): boolean => (err as { code?: number }).code === 11000;

const mac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest();

/** The signature of a task's link: only qrelay makes links to its pages. */
export const taskSignature = (secret: string, task: HostedTask): string =>
  mac(secret, `page|${task.batch}|${task.index}`).subarray(0, 18).toString('base64url');

export function validSignature(secret: string, task: HostedTask, given: string): boolean {
  const want = Buffer.from(taskSignature(secret, task));
  const got = Buffer.from(given);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** The task's completion code: participants who submitted its page are sent back with it. */
export const completionCode = (secret: string, task: HostedTask): string =>
  mac(secret, `cc|${task.batch}|${task.index}`).subarray(0, 6).toString('hex').toUpperCase();

export const taskPath = (task: HostedTask): string => `/tasks/${encodeURIComponent(task.batch)}/${task.index}`;

/** Where a participant who submitted the task goes: the platform's completion step. */
export const completionUrl = (config: Config, code: string): string => prolificCompletionUrl(config.env.PROLIFIC_API_URL, code);

/** The task pages and records a platform needs (src/crowd/hosted.ts), over this database. */
export function hostedServices(connection: Connection, config: Config): HostedServices {
  const models = taskModels(connection);
  return {
    pages: {
      async page(task) {
        const secret = await taskSecret(models);
        const query = `sig=${taskSignature(secret, task)}&PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}`;
        return { url: `${config.publicUrl}${taskPath(task)}?${query}`, completionCode: completionCode(secret, task) };
      },
      async answers(sessionIds) {
        const found = await Promise.all(sessionIds.map((id) => models.sessions.findById(id).lean<TaskSessionDoc>()));
        const out = new Map<string, string>();
        for (const s of found) if (s?.answerXml) out.set(s._id, s.answerXml);
        return out;
      },
    },
    memory: {
      async read(key) {
        return (await models.memory.findById(key).lean<MemoryDoc>())?.value;
      },
      async write(key, value) {
        await models.memory.updateOne({ _id: key }, { $set: { value, updatedAt: new Date() } }, { upsert: true });
      },
    },
  };
}
