import { Router, type Request } from 'express';
import { z } from 'zod';
import { HttpProblem, UserError } from '../../errors.js';
import { batchReport } from '../../export/index.js';
import { createPipelineContext, type PipelineContext } from '../../pipeline/context.js';
import { BatchNotFound, BatchStateError } from '../../pipeline/errors.js';
import { CsvTable, renderReport, REPORT_MEDIA_TYPES, ReportFormat } from '../../reports/index.js';
import type { AppContext } from '../context.js';
import { problemResponse, registry } from '../openapi.js';
import { zodProblemErrors } from '../problem.js';
import { BatchParam } from './pipeline-schemas.js';

const ReportQuery = z.object({
  format: ReportFormat.default('json').openapi({ description: 'json (default), md, html or csv' }),
  table: CsvTable.optional().openapi({ description: 'csv only: the per-worker table (default) or the per-item table' }),
});

const cents = z.number().int().openapi({ description: 'whole US cents' });
const seconds = z.number().nullable().openapi({ description: 'seconds; null when undefined for the data' });

/** The stable fields of the JSON report (docs/interfaces.md); src/reports/types.ts has them all. */
const ReportSchema = registry.register(
  'Report',
  z
    .looseObject({
      reportVersion: z.literal(1),
      batch: z.string(),
      items: z.number().int(),
      hits: z.number().int(),
      assignments: z.number().int(),
      votes: z.number().int(),
      labels: z.number().int(),
      fleissKappa: z.number().nullable(),
      krippendorffAlpha: z.number().nullable(),
      cost: z.looseObject({
        currency: z.literal('USD'),
        unit: z.literal('cents'),
        rewards: cents,
        fees: cents,
        bonuses: cents,
        total: cents,
        perLabel: cents.nullable(),
        holesFound: z.number().int().nullable(),
        perHole: cents.nullable(),
      }),
      latency: z.looseObject({
        publishToFirstAcceptSeconds: seconds,
        timeToTarget: z.looseObject({ voteTarget: z.number().int(), p50Seconds: seconds, p90Seconds: seconds, p99Seconds: seconds }),
      }),
      workers: z.array(z.looseObject({ worker: z.string() })),
    })
    .openapi({ description: 'money in whole US cents, durations in seconds (fields named ...Seconds); see src/reports/types.ts for every field' }),
);

registry.registerPath({
  method: 'get',
  path: '/api/v1/batches/{batch}/report',
  summary: "The batch's cost, latency and quality report (as `qrelay report`)",
  description:
    "holesFound and cost.perHole are counted against the base qrels of the batch's last `qrelay export-qrels`; null before any export.",
  request: { params: BatchParam, query: ReportQuery },
  responses: {
    200: {
      description: 'the report in the format asked for',
      content: {
        'application/json': { schema: ReportSchema },
        'text/markdown': { schema: z.string() },
        'text/html': { schema: z.string() },
        'text/csv': { schema: z.string() },
      },
    },
    400: problemResponse('an unknown format or table'),
    404: problemResponse('no such batch'),
    409: problemResponse('the batch is not published yet'),
  },
});

function parseQuery(req: Request) {
  const parsed = ReportQuery.safeParse(req.query);
  if (!parsed.success) throw new HttpProblem(400, 'Bad Request', "the request's query does not match its schema", { errors: zodProblemErrors(parsed.error, 'query') });
  return parsed.data;
}

function problemOf(err: unknown): unknown {
  if (err instanceof BatchNotFound) return new HttpProblem(404, 'Not Found', err.message);
  if (err instanceof BatchStateError) return new HttpProblem(409, 'Conflict', err.message);
  if (err instanceof UserError) return new HttpProblem(400, 'Bad Request', err.message);
  return err;
}

/** The HTML report is a whole document with its own style and inline SVG; it runs no script. */
const HTML_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function reportsRouter(ctx: AppContext): Router {
  const router = Router();
  let context: PipelineContext | undefined;
  const pipelineOf = () => (context ??= createPipelineContext({ connection: ctx.connection, config: ctx.config, logger: ctx.logger }));

  router.get('/batches/:batch/report', async (req, res) => {
    const parsedParams = BatchParam.safeParse(req.params);
    if (!parsedParams.success) throw new HttpProblem(400, 'Bad Request', "the request's path does not match its schema", { errors: zodProblemErrors(parsedParams.error, 'path') });
    const { format, table } = parseQuery(req);
    let text: string;
    try {
      const { report } = await batchReport(pipelineOf(), parsedParams.data.batch);
      text = renderReport(report, format, table ? { table } : {});
    } catch (err) {
      throw problemOf(err);
    }
    if (format === 'html') res.set('Content-Security-Policy', HTML_POLICY);
    res.set('X-Content-Type-Options', 'nosniff');
    res.status(200).type(REPORT_MEDIA_TYPES[format]).send(text);
  });
  return router;
}
