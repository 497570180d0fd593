// Vite build of the browser portal: served by the server on the same origin; in dev, /api and /pay go to the local server.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const target = process.env.PORTAL_API ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 700,
  },
  server: {
    proxy: {
      '/api': { target, changeOrigin: true },
      '/pay': { target, changeOrigin: true },
    },
  },
});
