#!/usr/bin/env node
// Runs the compiled CLI. `npm install` builds it (the root `prepare` script runs `tsc -b`).
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write(
    'shogi: the rules package is not built yet; run `npm install` (or `npm run build`) at the repository root.\n',
  );
  process.exit(2);
}
const { main } = await import(cli.href);
main();
