import '../zod-openapi.js';
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

/**
 * Route modules register their zod schemas here; the schemas that validate requests are
 * the ones that describe them in /openapi.json.
 */
export const registry = new OpenAPIRegistry();

export const bearerAuth = registry.registerComponent('securitySchemes', 'bearerAuth', {
  type: 'http',
  scheme: 'bearer',
  description:
    'QRELAY_API_TOKEN; required on every mutating route (POST, PUT, PATCH, DELETE) and on every read that returns worker ids or their records (workers, votes, labels, items, answers, audit log, report). QRELAY_API_READ_TOKEN, when set, is taken for those reads only.',
});

export const ProblemSchema = registry.register(
  'Problem',
  z
    .object({
      type: z.string(),
      title: z.string(),
      status: z.number().int(),
      detail: z.string().optional(),
      instance: z.string().optional(),
      errors: z
        .array(
          z.object({
            line: z.number().int().optional().openapi({ description: 'the line of an uploaded file (0: the file as a whole)' }),
            field: z
              .string()
              .openapi({ description: 'where: `query.format`, `body.budgetUsd`, or a field of a file line (empty: the whole line)' }),
            reason: z.string(),
          }),
        )
        .optional()
        .openapi({ description: 'every error found (the first ones, for a file)' }),
      moreErrors: z.number().int().optional().openapi({ description: 'errors found beyond those listed' }),
    })
    .openapi({ description: 'RFC 9457 problem details: every error of the API has this one shape' }),
);

export const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ProblemSchema } },
});

/**
 * A JSON request body as registerPath takes it: required in the document exactly when an
 * empty body does not parse (the routes read a missing body as `{}`).
 */
export const jsonRequestBody = (schema: z.ZodType) => ({
  required: !schema.safeParse({}).success,
  content: { 'application/json': { schema } },
});

export function buildOpenApiDocument(version: string) {
  return completeResponses(
    new OpenApiGeneratorV31(registry.definitions).generateDocument({
      openapi: '3.1.0',
      info: {
        title: 'qrelay',
        version,
        description:
          'Escalates relevance cases on which LLM judges disagreed to crowd workers, aggregates their votes and merges the labels into qrels.',
      },
      servers: [{ url: '/' }],
    }),
  );
}

type Document = ReturnType<OpenApiGeneratorV31['generateDocument']>;
const PROBLEM_CONTENT = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };

/**
 * What every route can answer besides what its registration lists, so that the document
 * names every status code the server sends (test/api-contract.test.ts checks it):
 * 400 where a request has parameters or a body to get wrong, 401 and 403 where the bearer
 * token is asked for (api/auth.ts answers 403 to a wrong token, and to the read-only token
 * on a route that changes state), 500 anywhere. And a fix of
 * the generator: a nullable registered schema comes out as `allOf: [$ref, {type: [object,
 * null]}]`, which no null satisfies; it is written `anyOf: [$ref, {type: null}]`.
 */
function completeResponses(doc: Document): Document {
  for (const ops of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(
      ops as Record<
        string,
        { parameters?: unknown[]; requestBody?: unknown; security?: Record<string, unknown>[]; responses?: Record<string, unknown> }
      >,
    )) {
      if (!op || typeof op !== 'object' || !op.responses) continue;
      if ((op.security ?? []).some((s) => bearerAuth.name in s)) {
        op.responses['401'] ??= { description: 'missing bearer token', content: PROBLEM_CONTENT };
        op.responses['403'] ??= {
          description: 'a wrong bearer token, or the read-only token (QRELAY_API_READ_TOKEN) on a route that changes state',
          content: PROBLEM_CONTENT,
        };
      }
      if (((op.parameters?.length ?? 0) > 0 || op.requestBody) && !op.responses['400']) {
        op.responses['400'] = { description: 'the request does not match its schema (path, query or body)', content: PROBLEM_CONTENT };
      }
      op.responses['500'] ??= { description: 'an unexpected error (the server log has the details)', content: PROBLEM_CONTENT };
    }
  }
  return fixNullableRefs(doc) as Document;
}

function fixNullableRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(fixNullableRefs);
  if (!node || typeof node !== 'object') return node;
  const o = node as Record<string, unknown>;
  const all = o.allOf;
  if (Array.isArray(all) && all.length === 2) {
    const [ref, nul] = all as [Record<string, unknown>, Record<string, unknown>];
    const types = nul?.type;
    if (typeof ref?.$ref === 'string' && Array.isArray(types) && types.includes('null') && Object.keys(nul).length === 1) {
      const { allOf: _drop, ...rest } = o;
      void _drop;
      return { ...rest, anyOf: [ref, { type: 'null' }] };
    }
  }
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, fixNullableRefs(v)]));
}
