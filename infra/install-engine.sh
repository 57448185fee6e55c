#!/usr/bin/env bash
# Installs Debian's Fairy-Stockfish, the USI engine of the house bots and analysis
# (packages/usi), when it is missing. Needs apt-get and root; exits 1 when it could not.
set -uo pipefail

if [ -x /usr/games/fairy-stockfish ]; then exit 0; fi
echo "Installing Fairy-Stockfish (apt-get install -y fairy-stockfish)..."
apt-get install -y fairy-stockfish >/dev/null 2>&1 ||
  { apt-get update >/dev/null 2>&1 && apt-get install -y fairy-stockfish >/dev/null 2>&1; }
[ -x /usr/games/fairy-stockfish ]
