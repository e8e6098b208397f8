import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * The production deployment (there is no container engine here): the compose file parsed and
 * checked — PostgreSQL, a broker, two Lampyr replicas whose roles cover all four between them, a
 * load balancer in front of the HTTP one, a healthcheck on every service, secrets required rather
 * than defaulted, the files it mounts present — and the Dockerfile: multi-stage, non-root, the
 * compiled server run by plain Node.
 */
const root = join(import.meta.dirname, '..', '..', '..');
const deploy = join(root, 'deploy');
interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  ports?: string[];
}
const compose = parse(readFileSync(join(deploy, 'compose.yaml'), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
};
const services = compose.services;
const lampyr = Object.entries(services).filter(([, s]) => s.command?.includes('packages/server/dist/main.js'));
const rolesOf = (s: Service) => {
  const at = s.command?.indexOf('--roles') ?? -1;
  return at < 0 ? [] : (s.command?.[at + 1]?.split(',') ?? []);
};

describe('compose file', () => {
  it('brings up PostgreSQL, Mosquitto, two Lampyr replicas with split roles and a load balancer', () => {
    expect(services.postgres?.image).toMatch(/^postgres:1[5-9]/);
    expect(services.mqtt?.image).toMatch(/mosquitto/);
    expect(lampyr.map(([name]) => name).sort()).toEqual(['api', 'ingest']);
    expect(rolesOf(services.api as Service).sort()).toEqual(['command', 'query']);
    expect(rolesOf(services.ingest as Service).sort()).toEqual(['engines', 'ingest']);
    // Between them every role runs, none twice.
    expect(lampyr.flatMap(([, s]) => rolesOf(s)).sort()).toEqual(['command', 'engines', 'ingest', 'query']);
    expect(services.lb?.image).toMatch(/nginx/);
    expect(services.lb?.depends_on?.api?.condition).toBe('service_healthy');
  });

  it('gives every service a healthcheck and starts Lampyr only once its database and broker are healthy', () => {
    for (const [name, service] of Object.entries(services)) {
      expect(service.healthcheck?.test?.length, name).toBeGreaterThan(1);
    }
    for (const [, service] of lampyr) {
      expect(service.healthcheck?.test.join(' ')).toContain('/ready');
      expect(service.depends_on?.postgres?.condition).toBe('service_healthy');
      expect(service.depends_on?.mqtt?.condition).toBe('service_healthy');
    }
  });

  it('runs Lampyr on PostgreSQL and the external broker, with required secrets shared by the replicas', () => {
    for (const [, service] of lampyr) {
      const env = service.environment ?? {};
      expect(env.DATABASE_URL).toMatch(/^postgres:\/\/.*@postgres:5432\//);
      expect(env.MQTT_URL).toBe('mqtt://mqtt:1883');
      // `${VAR:?…}`: compose refuses to start without them, never a default secret.
      for (const secret of ['JWT_SECRET', 'SECRETS_KEY', 'MQTT_PASSWORD', 'LAMPYR_ADMIN_PASSWORD'])
        expect(env[secret], secret).toMatch(/^\$\{[A-Z_]+:\?/);
      expect(env.LAMPYR_DEMO).toBe('off');
    }
    // The ingest worker has a stable client id of its own (its session survives a restart).
    expect(services.ingest?.environment?.MQTT_CLIENT_ID).toMatch(/^lampyr-ingest-\d+$/);
  });

  it('mounts files that exist, and the load balancer passes the live stream unbuffered', () => {
    for (const service of Object.values(services))
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0] as string;
        if (source.startsWith('.')) expect(existsSync(join(deploy, source)), source).toBe(true);
      }
    const nginx = readFileSync(join(deploy, 'nginx.conf'), 'utf8');
    expect(nginx).toMatch(/server api:8080/);
    expect(nginx).toMatch(/location = \/query\/api\/stream \{[^}]*proxy_buffering off/);
    expect(readFileSync(join(deploy, 'mosquitto.conf'), 'utf8')).toMatch(/allow_anonymous false/);
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  const stages = dockerfile.split(/^FROM /m).slice(1);

  it('is multi-stage and runs the compiled server as a non-root user, without tsx', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const runtime = stages.at(-1) as string;
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/CMD \["node", "packages\/server\/dist\/main\.js"\]/);
    expect(runtime).not.toMatch(/tsx/);
    expect(runtime).toMatch(/HEALTHCHECK/);
    // The build stage compiles with the same script the e2e tests run.
    expect(stages[0]).toMatch(/node scripts\/build-server\.mjs/);
    expect(existsSync(join(root, 'scripts', 'build-server.mjs'))).toBe(true);
  });
});
