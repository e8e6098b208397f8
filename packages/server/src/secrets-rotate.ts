import { RotationError, rotateSecrets } from './auth/rotate-secrets.ts';
import { loadSecretBox } from './auth/secret-box.ts';
import { loadJwtSecret } from './auth/tokens.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/connect.ts';

/**
 * `npm run secrets:rotate`: re-seals every stored secret with SECRETS_KEY. Run it with the server's
 * environment after the new key is SECRETS_KEY and the old one is in SECRETS_KEYS_OLD (and the
 * servers restarted with both), then drop the old key.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const box = loadSecretBox(config, loadJwtSecret(config.JWT_SECRET, config.DATA_DIR));
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 2 });
  try {
    const result = await rotateSecrets(database.db, box);
    const detail = Object.entries(result.byResource).map(([resource, n]) => `  ${resource}: ${n}`);
    process.stdout.write(
      `Re-sealed ${result.resealed} stored secret${result.resealed === 1 ? '' : 's'} with key ${box.currentKeyId}.\n` +
        (detail.length ? `${detail.join('\n')}\n` : ''),
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof RotationError) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`Rotation failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
