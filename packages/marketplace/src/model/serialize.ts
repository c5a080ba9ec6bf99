import { model, shapeOf, type Shape } from './model.js';

/**
 * Turns an operation's output into its wire JSON, walking the model's output shape:
 * Dates become epoch seconds (numbers, as MTurk sends them), undefined members are left
 * out, and members the model does not declare never leave the server, so internal fields
 * cannot leak into a response.
 */
function toWire(shape: Shape, value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  switch (shape.type) {
    case 'structure': {
      const input = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [name, ref] of Object.entries(shape.members)) {
        const wire = toWire(shapeOf(ref.shape), input[name]);
        if (wire !== undefined) out[name] = wire;
      }
      return out;
    }
    case 'list':
      return (value as unknown[]).map((item) => toWire(shapeOf(shape.member.shape), item));
    case 'map':
      return Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, toWire(shapeOf(shape.value.shape), v)]),
      );
    case 'timestamp': {
      const ms = value instanceof Date ? value.getTime() : Number(value);
      return ms / 1000;
    }
    default:
      return value;
  }
}

export function serializeOutput(operation: string, output: unknown): Record<string, unknown> {
  const op = model.operations[operation];
  if (!op) throw new Error(`unknown operation ${operation}`);
  if (!op.output) return {};
  return (toWire(shapeOf(op.output.shape), output ?? {}) as Record<string, unknown>) ?? {};
}
