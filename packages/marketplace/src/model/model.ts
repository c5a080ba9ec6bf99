import serviceModel from './mturk-2017-01-17.service-2.json' with { type: 'json' };
import paginatorsModel from './mturk-2017-01-17.paginators-1.json' with { type: 'json' };

/** The parts of a botocore service model the marketplace reads. */
export interface MemberRef {
  shape: string;
  deprecated?: boolean;
}

export type Shape =
  | { type: 'structure'; required?: string[]; members: Record<string, MemberRef>; exception?: boolean; fault?: boolean }
  | { type: 'list'; member: MemberRef; min?: number; max?: number }
  | { type: 'map'; key: MemberRef; value: MemberRef; min?: number; max?: number }
  | { type: 'string'; min?: number; max?: number; pattern?: string; enum?: string[] }
  | { type: 'integer' | 'long'; min?: number; max?: number }
  | { type: 'boolean' }
  | { type: 'timestamp' }
  | { type: 'double' | 'float'; min?: number; max?: number }
  | { type: 'blob' };

export interface Operation {
  name: string;
  input?: { shape: string };
  output?: { shape: string };
}

export interface ServiceModel {
  metadata: { targetPrefix: string; jsonVersion: string; apiVersion: string; endpointPrefix: string };
  operations: Record<string, Operation>;
  shapes: Record<string, Shape>;
}

export interface Paginator {
  input_token: string;
  output_token: string;
  limit_key: string;
  result_key: string;
}

// The JSON's inferred type is wider than these interfaces (documentation strings etc.).
export const model = serviceModel as unknown as ServiceModel;
export const paginators = (paginatorsModel as unknown as { pagination: Record<string, Paginator> }).pagination;

export const TARGET_PREFIX = model.metadata.targetPrefix;
export const operationNames = Object.keys(model.operations);

export function shapeOf(name: string): Shape {
  const shape = model.shapes[name];
  if (!shape) throw new Error(`the MTurk model has no shape ${name}`);
  return shape;
}
