export { ACCESS_LEVELS, type Access, accessOf, ROUTE_ACCESS } from './access.js';
export {
  type AppExtras,
  type AppOptions,
  app,
  buildApp,
  fastifyOptions,
  type HousePlayers,
  type LobbyLookers,
} from './app.js';
export { type GatewayConfig, loadConfig } from './config.js';
export type { CsaFrontEnd } from './csa/plugin.js';
export type { HousePlayer } from './domain/auth.js';
export { type Bot, BotRegistry } from './domain/bots.js';
export { LocalDelivery } from './domain/hub.js';
export { createLogger, REDACT_PATHS, stripToken } from './logger.js';
export { type RunningGateway, startGateway } from './server.js';
export { type DirectorDeps, directTournament } from './tournaments/director.js';
export { directorLeaseKey } from './tournaments/plugin.js';
