// Empty: see package.json's description. Next.js never loads this file (it resolves "server-only" to its own copy).
