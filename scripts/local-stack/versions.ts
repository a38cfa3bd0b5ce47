/** Versions of the local stack's parts, fetched from Maven Central / npm. */
export const KAFKA_VERSION = '3.9.1';
export const APICURIO_VERSION = '3.3.3';
export const DEPENDENCY_PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1';
