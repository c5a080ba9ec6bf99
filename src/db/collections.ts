/** Collection names qrelay owns, in one place (mongoose models use these too). */
export const collections = {
  migrations: 'migrations',
  agendaJobs: 'agendaJobs',
  housekeepingRuns: 'housekeeping_runs',
  // the escalation pipeline (src/db/models/index.ts describes each)
  batches: 'batches',
  imports: 'imports',
  items: 'items',
  itemTexts: 'item_texts',
  gold: 'gold',
  goldTexts: 'gold_texts',
  consensus: 'consensus',
  hits: 'hits',
  hitQuestions: 'hit_questions',
  hitIds: 'hit_ids',
  assignments: 'assignments',
  assignmentAnswers: 'assignment_answers',
  labels: 'labels',
  targetQualifications: 'target_qualifications',
  workerDecisions: 'worker_decisions',
  // each worker's record and score across a target's batches (src/pipeline/reputation.ts)
  workerReputation: 'worker_reputation',
  // exports of a batch (src/export/store.ts) and the demo's runs (src/demo/runs.ts)
  qrelsExports: 'qrels_exports',
  // the forecast's choice of the labels export-qrels writes by default (src/export/aggregate-choice.ts)
  aggregateChoices: 'aggregate_choices',
  demoRuns: 'demo_runs',
  // the API's snapshots of status and report answers (src/api/answers.ts)
  answerSnapshots: 'answer_snapshots',
  // the LLM steps around the crowd (src/debate/store.ts)
  llmRuns: 'llm_runs',
  adjudications: 'adjudications',
  llmJobs: 'llm_jobs',
  // the requester's actions (src/actions/models.ts)
  auditLog: 'audit_log',
  bonuses: 'bonuses',
  manualLabels: 'manual_labels',
  // the console's live sessions: logging out ends one on the server (src/console/session-store.ts)
  consoleSessions: 'console_sessions',
} as const;
