import { ConfigError, loadConfig, mqttClientId } from './config.ts';
import { retireSession } from './ingest/retire-session.ts';

/**
 * `npm run mqtt:retire [-- <client id>]`: retires an ingest worker — its broker session ends, so
 * its share of the shared subscription goes to the others at once instead of waiting for the
 * session expiry (MQTT_SESSION_EXPIRY_SECONDS). Run with the worker's environment (MQTT_URL,
 * MQTT_USERNAME, MQTT_PASSWORD, and its DATA_DIR or MQTT_CLIENT_ID), or name the client id.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.MQTT_URL)
    throw new ConfigError('MQTT_URL: the broker whose session to end (the embedded broker keeps none across restarts)');
  const clientId = process.argv[2] ?? mqttClientId(config);
  await retireSession({
    url: config.MQTT_URL,
    clientId,
    username: config.MQTT_USERNAME,
    password: config.MQTT_PASSWORD,
  });
  process.stdout.write(`The broker session of ${clientId} has ended.\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof ConfigError ? error.message : `Retiring failed: ${error instanceof Error ? error.message : String(error)}`}\n`,
  );
  process.exit(1);
});
