import { Router, type Request } from 'express';
import { z } from 'zod';
import { HttpProblem, UserError } from '../../errors.js';
import { BatchNotFound, BatchStateError } from '../../pipeline/errors.js';
import { CsvTable, ReportContract, ReportFormat } from '../../reports/index.js';
import type { AppContext } from '../context.js';
import { bearerAuth, problemResponse, registry } from '../openapi.js';
import { answersOf } from '../answers.js';
import { sendAnswer, type RenderedAnswer } from '../snapshot.js';
import { zodProblemErrors } from '../problem.js';
import { BatchParam } from './pipeline-schemas.js';

const ReportQuery = z.object({
  format: ReportFormat.default('json').openapi({ description: 'json (default), md, html or csv' }),
  table: CsvTable.optional().openapi({ description: 'csv only: the per-worker table (default) or the per-item table' }),
});

/** The stable fields of the JSON report: the one contract (src/reports/contract.ts). */
const ReportSchema = registry.register('Report', ReportContract);

registry.registerPath({
  method: 'get',
  path: '/api/v1/batches/{batch}/report',
  summary: "The batch's cost, latency and quality report (as `qrelay report`)",
  description:
    "holesFound and cost.perHole are counted against the base qrels of the batch's last `qrelay export-qrels`; null before any export.",
  // its per-worker tables name workers: the token is asked for (api/auth.ts)
  security: [{ [bearerAuth.name]: [] }],
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
    401: problemResponse('missing bearer token: the report names workers'),
    403: problemResponse('wrong bearer token'),
    404: problemResponse('no such batch'),
    409: problemResponse('the batch is not published yet'),
  },
});

function parseQuery(req: Request) {
  const parsed = ReportQuery.safeParse(req.query);
  if (!parsed.success)
    throw new HttpProblem(400, 'Bad Request', "the request's query does not match its schema", {
      errors: zodProblemErrors(parsed.error, 'query'),
    });
  return parsed.data;
}

function problemOf(err: unknown): unknown {
  if (err instanceof BatchNotFound) return new HttpProblem(404, 'Not Found', err.message);
  if (err instanceof BatchStateError) return new HttpProblem(409, 'Conflict', err.message);
  if (err instanceof UserError) return new HttpProblem(400, 'Bad Request', err.message);
  return err;
}

/** The HTML report is a whole document with its own style and inline SVG; it runs no script. */
const HTML_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function reportsRouter(ctx: AppContext): Router {
  const router = Router();

  router.get('/batches/:batch/report', async (req, res) => {
    const parsedParams = BatchParam.safeParse(req.params);
    if (!parsedParams.success)
      throw new HttpProblem(400, 'Bad Request', "the request's path does not match its schema", {
        errors: zodProblemErrors(parsedParams.error, 'path'),
      });
    const { format, table } = parseQuery(req);
    const batch = parsedParams.data.batch;
    let answer: RenderedAnswer;
    try {
      // one snapshot per batch, format and table, while the batch and its last export are unchanged (answers.ts)
      answer = await answersOf(ctx).report(batch, format, table);
    } catch (err) {
      throw problemOf(err);
    }
    if (format === 'html') res.set('Content-Security-Policy', HTML_POLICY);
    res.set('X-Content-Type-Options', 'nosniff');
    sendAnswer(req, res, answer);
  });
  return router;
}
