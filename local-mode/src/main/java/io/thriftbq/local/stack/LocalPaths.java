package io.thriftbq.local.stack;

import io.thriftbq.local.config.SourceKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** Where the project-local tools live, and what to tell a user who lacks them. */
public final class LocalPaths {
  /** System property (set by scripts/run-local.sh and the build) naming the repository root. */
  public static final String REPO_ROOT_PROPERTY = "thriftbq.repoRoot";

  static final String INSTALLER = "scripts/local/install-bigquery-emulator.sh";

  private LocalPaths() {}

  public static Path repoRoot() {
    String configured = System.getProperty(REPO_ROOT_PROPERTY);
    if (configured != null && !configured.isBlank()) {
      return Paths.get(configured).toAbsolutePath().normalize();
    }
    Path dir = Paths.get("").toAbsolutePath();
    for (Path candidate = dir; candidate != null; candidate = candidate.getParent()) {
      if (Files.isRegularFile(candidate.resolve(INSTALLER))) {
        return candidate;
      }
    }
    return dir;
  }

  /** {@code LOCAL_STACK_DIR}, as the installer uses it, else {@code <repo>/.local-stack}. */
  public static Path stackDir() {
    String env = System.getenv("LOCAL_STACK_DIR");
    return env != null && !env.isBlank() ? Paths.get(env) : repoRoot().resolve(".local-stack");
  }

  /** The local-bigquery executable: {@code LOCAL_BIGQUERY_BIN}, else the installer's venv. */
  public static Path localBigQueryExecutable() {
    String env = System.getenv("LOCAL_BIGQUERY_BIN");
    if (env != null && !env.isBlank()) {
      return Paths.get(env);
    }
    return stackDir().resolve("venv-bq").resolve("bin").resolve("local-bigquery");
  }

  /** The gcloud CLI: {@code GCLOUD_BIN}, else the first gcloud on PATH, else null. */
  public static String gcloud() {
    String env = System.getenv("GCLOUD_BIN");
    if (env != null && !env.isBlank()) {
      return env;
    }
    String path = System.getenv("PATH");
    if (path == null) {
      return null;
    }
    for (String dir : path.split(java.io.File.pathSeparator)) {
      Path candidate = Paths.get(dir, "gcloud");
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    return null;
  }

  /** The directory of gcloud's Pub/Sub emulator component, or null if it is not installed. */
  public static Path pubsubEmulatorComponent(String gcloud) {
    if (gcloud == null) {
      return null;
    }
    // gcloud lives in <sdk>/bin; a symlink (e.g. /usr/bin/gcloud) points there.
    Path real;
    try {
      real = Paths.get(gcloud).toRealPath();
    } catch (java.io.IOException e) {
      return null;
    }
    Path sdk = real.getParent() == null ? null : real.getParent().getParent();
    if (sdk == null) {
      return null;
    }
    Path component = sdk.resolve("platform").resolve("pubsub-emulator");
    return Files.isDirectory(component) ? component : null;
  }

  /**
   * The Kafka broker's classpath, a directory of jars: {@code KAFKA_BROKER_LIBS}, else what the
   * build copies into {@value #KAFKA_BROKER_LIBS_IN_REPO}. Never local mode's own classpath: the
   * broker is Kafka 4.x, the pipelines' clients 3.9.x.
   */
  public static Path kafkaBrokerLibs() {
    String env = System.getenv("KAFKA_BROKER_LIBS");
    if (env != null && !env.isBlank()) {
      return Paths.get(env);
    }
    return repoRoot().resolve(KAFKA_BROKER_LIBS_IN_REPO);
  }

  static final String KAFKA_BROKER_LIBS_IN_REPO =
      "local-mode/kafka-broker/target/kafka-broker-libs";

  /** The Pub/Sub run's prerequisites; see {@link #missingPrerequisites(SourceKind)}. */
  public static String missingPrerequisites() {
    return missingPrerequisites(SourceKind.PUBSUB);
  }

  /**
   * Checks what a run from {@code source} starts (the BigQuery emulator, and the Pub/Sub emulator
   * or the Kafka broker) and explains what to do about anything missing. Empty when all is present.
   */
  public static String missingPrerequisites(SourceKind source) {
    StringBuilder problems = new StringBuilder();
    Path bq = localBigQueryExecutable();
    if (!Files.isExecutable(bq)) {
      problems
          .append("The BigQuery emulator is not installed (looked for ")
          .append(bq)
          .append(").\n  Install it with: ")
          .append(repoRoot().resolve(INSTALLER))
          .append("\n");
    }
    switch (source) {
      case PUBSUB -> problems.append(missingPubsubEmulator());
      case KAFKA -> problems.append(missingKafkaBroker());
    }
    return problems.toString();
  }

  private static String missingPubsubEmulator() {
    String gcloud = gcloud();
    if (gcloud == null) {
      return "The Google Cloud CLI (gcloud) is not on PATH; local mode needs its Pub/Sub emulator"
          + " (or run with --source kafka).\n"
          + "  Install the CLI (https://cloud.google.com/sdk/docs/install), then:"
          + " gcloud components install pubsub-emulator beta\n";
    }
    if (pubsubEmulatorComponent(gcloud) == null) {
      return "The Pub/Sub emulator component of gcloud is not installed. Get it with one of:\n"
          + "  gcloud components install pubsub-emulator beta\n"
          + "  sudo apt-get install google-cloud-cli-pubsub-emulator   (apt-installed CLI)\n";
    }
    return "";
  }

  private static String missingKafkaBroker() {
    Path libs = kafkaBrokerLibs();
    if (KafkaBroker.brokerJar(libs) == null) {
      return "The Kafka broker's jars are not built (looked in "
          + libs
          + ").\n  Build them with: ./mvnw -DskipTests -pl local-mode -am package\n";
    }
    return "";
  }
}
