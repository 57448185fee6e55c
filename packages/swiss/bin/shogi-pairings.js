#!/usr/bin/env node
import { processIo, runCli } from '../dist/cli.js';

process.exitCode = runCli(process.argv.slice(2), processIo);
