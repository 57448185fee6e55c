/**
 * Schema evolution of stored events: a payload written by an older version is brought to
 * the current shape when read, so the log itself is never rewritten.
 * - GameCreated before time controls existed had none: unlimited, and never rated.
 */
export function upcastEventData(type: string, data: unknown): unknown {
  if (type === 'GameCreated' && typeof data === 'object' && data !== null && !('timeControl' in data))
    return { ...data, timeControl: { kind: 'unlimited' }, rated: false };
  return data;
}
