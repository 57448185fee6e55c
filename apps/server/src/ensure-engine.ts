/**
 * `npm start`'s first step (the `prestart` script): makes sure the house bots have an engine.
 * When Debian's Fairy-Stockfish is missing it installs it with infra/install-engine.sh (the
 * script infra/start-services.sh uses) if it can (apt-get there and root), and otherwise says
 * why not and what to run. It never stops the start: without an engine the house bots play
 * built-in moves, and the lobby says so (GET /api/bots, `engine.running`).
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_ENGINE_PATH } from '@shogi/engine-worker';

/** What the step finds on this machine. */
export interface EngineFacts {
  /** ENGINE_PATH, or the Debian package's path */
  readonly enginePath: string;
  /** ENGINE_PATH was set: a path no package installs to */
  readonly custom: boolean;
  /** an executable is at enginePath */
  readonly found: boolean;
  /** ENGINE_INSTALL=0: the operator asked for no install */
  readonly optedOut: boolean;
  readonly aptGet: boolean;
  readonly root: boolean;
}

export type EnginePlan =
  | { readonly action: 'none'; readonly message: string }
  | { readonly action: 'install'; readonly message: string };

const WITHOUT = 'until then the house bots (engine levels 1-8) play simple built-in moves, and the lobby says so';
const HOW = `apt-get install -y fairy-stockfish`;

/** Whether to install the engine, and what to tell the person starting the server. */
export function planEngine(f: EngineFacts): EnginePlan {
  if (f.found) return { action: 'none', message: `Engine: ${f.enginePath}` };
  const missing = `No engine at ${f.enginePath}`;
  if (f.custom)
    return {
      action: 'none',
      message: `${missing} (ENGINE_PATH): put one there, or unset ENGINE_PATH to have Debian's Fairy-Stockfish installed; ${WITHOUT}.`,
    };
  if (f.optedOut)
    return { action: 'none', message: `${missing}, and ENGINE_INSTALL=0 says not to install one; ${WITHOUT}.` };
  if (!f.aptGet)
    return {
      action: 'none',
      message: `${missing}, and no apt-get here to install Fairy-Stockfish: install it and set ENGINE_PATH; ${WITHOUT}.`,
    };
  if (!f.root)
    return { action: 'none', message: `${missing}, and installing one needs root: run \`sudo ${HOW}\`; ${WITHOUT}.` };
  return { action: 'install', message: `${missing}: installing Debian's Fairy-Stockfish (${HOW}).` };
}

const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

const onPath = (command: string, env: NodeJS.ProcessEnv): boolean =>
  (env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && executable(join(dir, command)));

export function factsOf(env: NodeJS.ProcessEnv = process.env): EngineFacts {
  const custom = env.ENGINE_PATH !== undefined && env.ENGINE_PATH !== '';
  const enginePath = custom ? (env.ENGINE_PATH as string) : DEFAULT_ENGINE_PATH;
  return {
    enginePath,
    custom,
    found: executable(enginePath),
    optedOut: env.ENGINE_INSTALL === '0' || env.ENGINE_INSTALL === 'false',
    aptGet: onPath('apt-get', env),
    root: process.getuid?.() === 0,
  };
}

function main(): void {
  const plan = planEngine(factsOf());
  if (plan.action === 'none') {
    console.log(plan.message);
    return;
  }
  console.log(plan.message);
  const script = resolve(import.meta.dirname, '../../../infra/install-engine.sh');
  const run = spawnSync(script, { stdio: 'inherit' });
  console.log(
    run.status === 0 && executable(DEFAULT_ENGINE_PATH)
      ? `Fairy-Stockfish installed: ${DEFAULT_ENGINE_PATH}`
      : `Fairy-Stockfish could not be installed (see above); ${WITHOUT}.`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
