/**
 * A player's Redis channel, `player:<id>`: what the lobby and the game service tell one
 * player (protocol's LobbyMessage), read by the player's lobby sockets and lishogi event
 * streams on any gateway. `channelPrefix` isolates deployments and tests.
 */
export const playerChannel = (playerId: string, channelPrefix = ''): string => `${channelPrefix}player:${playerId}`;
