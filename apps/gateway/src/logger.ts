/** The one root logger: JSON lines, bearer tokens and passwords redacted, pretty only on a terminal. */
import { type DestinationStream, type Logger, type LoggerOptions, pino, stdSerializers } from 'pino';

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
  '*.currentPassword',
  '*.newPassword',
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

export function createLogger(
  options: { level: string; pretty?: boolean; name?: string },
  /** where the lines go (stdout by default); tests pass a stream to read them back */
  destination?: DestinationStream,
): Logger {
  const pretty = destination === undefined && (options.pretty ?? process.stdout.isTTY === true) && prettyAvailable();
  const settings: LoggerOptions = {
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
  };
  return destination === undefined ? pino(settings) : pino(settings, destination);
}
