/**
 * What `npm run faults` runs (pure): the faults in order, and the environment of its own stack,
 * on ports and in a folder of its own so the shared stack (:5433, :9092, :8081) is never touched.
 */
export const FAULTS = [
  'baseline',
  'kafka-pause',
  'kafka-kill',
  'registry-pause',
  'registry-kill',
  'postgres-pause',
  'postgres-kill',
] as const;
export type Fault = (typeof FAULTS)[number];

export const SUITE_PORTS = {
  postgres: 5443,
  kafka: 9192,
  kafkaController: 9193,
  registry: 8181,
  registryManagement: 9101,
  api: 3950,
};

/**
 * The suite's environment: `env` with every address of the stack replaced (DATABASE_URL and the
 * secret-key variables removed, so the embedded server and the suite's own key file are used).
 */
export function suiteEnv(env: NodeJS.ProcessEnv, stackDir: string, ports = SUITE_PORTS): NodeJS.ProcessEnv {
  const rest = { ...env };
  for (const name of ['DATABASE_URL', 'PI_SECRET_KEYS', 'PI_SECRET_KEYS_FILE', 'PI_TOPIC_NAMESPACE']) delete rest[name];
  return {
    ...rest,
    PI_STACK_DIR: stackDir,
    PI_EMBEDDED_PG_PORT: String(ports.postgres),
    KAFKA_BROKERS: `127.0.0.1:${ports.kafka}`,
    PI_KAFKA_CONTROLLER_PORT: String(ports.kafkaController),
    SCHEMA_REGISTRY_URL: `http://127.0.0.1:${ports.registry}/apis/ccompat/v7`,
    PI_REGISTRY_MANAGEMENT_PORT: String(ports.registryManagement),
    PORT: String(ports.api),
    HOST: '127.0.0.1',
  };
}
