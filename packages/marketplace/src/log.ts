import { pino, type Logger } from 'pino';

/** The marketplace logs through pino; an embedding program may pass its own pino logger. */
export type { Logger };

/** Paths whose values never reach a log line. */
const redactedPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.secretAccessKey',
  '*.SecretAccessKey',
  '*.token',
];

export function createMarketplaceLogger(level: string = 'info'): Logger {
  return pino({ level, base: { service: 'qrelay-marketplace' }, redact: { paths: redactedPaths, censor: '[redacted]' } });
}
