/**
 * The marketplace's errors meant for a person (the operator): the message says what is
 * wrong and what to do. Protocol errors returned to API clients are in protocol/errors.ts
 * and domain/errors.ts.
 */
export class MarketplaceUserError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MarketplaceUserError';
  }
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
