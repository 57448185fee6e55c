/**
 * How the launcher's bots get their players. An account may hold a bot's name as its
 * username (accounts win: no guest may then take it), which must not stop the bots nor the
 * server: the bot takes `<name> (bot)` instead, which no username can be (it has a space).
 */
import type { CreatePlayerResponse } from '@shogi/protocol';

export type CreatePlayer = (name: string) => Promise<CreatePlayerResponse>;

const nameTaken = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === 'NAME_TAKEN';

export async function createBotPlayer(create: CreatePlayer, name: string): Promise<CreatePlayerResponse> {
  try {
    return await create(name);
  } catch (err) {
    if (!nameTaken(err)) throw err;
    return create(`${name} (bot)`);
  }
}
