/** The one root logger: JSON lines, bearer tokens and passwords redacted, pretty only on a terminal. */
import { type Logger, pino, stdSerializers } from 'pino';

/** Secrets by path, wherever a log line could carry them: bearer tokens, their hashes, passwords. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["idempotency-key"]',
  'req.headers.cookie',
  'headers.authorization',
  'authorization',
  'token',
  '*.token',
  'tokenHash',
  '*.tokenHash',
  'password',
  '*.password',
  'passwordHash',
  '*.passwordHash',
];

/** Strips `token=` from a logged URL (the player WebSocket may carry it in the query). */
export const stripToken = (url: string): string => url.replace(/([?&]token=)[^&]*/g, '$1[Redacted]');

interface LoggedRequest {
  method?: string;
  url?: string;
  ip?: string;
  id?: string;
}

/** pino-pretty is a development dependency: production images log JSON lines. */
function prettyAvailable(): boolean {
  try {
    import.meta.resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

export function createLogger(options: { level: string; pretty?: boolean; name?: string }): Logger {
  const pretty = (options.pretty ?? process.stdout.isTTY === true) && prettyAvailable();
  return pino({
    level: options.level,
    name: options.name ?? 'shogi',
    redact: { paths: REDACT_PATHS, censor: '[Redacted]' },
    serializers: {
      req: (req: LoggedRequest) => ({ id: req.id, method: req.method, url: stripToken(req.url ?? ''), ip: req.ip }),
      err: stdSerializers.err,
    },
    ...(pretty
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } } }
      : {}),
  });
}
