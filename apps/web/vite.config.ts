import { defaultClientConditions, defineConfig } from 'vite';

// Workspace packages (@shogi/rules, @shogi/protocol) are bundled from their TypeScript
// sources, so the client builds without waiting for `tsc -b`.
export default defineConfig({
  root: import.meta.dirname,
  resolve: { conditions: ['@shogi/source', ...defaultClientConditions] },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', reportCompressedSize: false },
  server: { proxy: { '/api': { target: 'http://localhost:3000', ws: true } } },
});
