package io.thriftbq.local.run;

import io.thriftbq.ingest.plan.IngestionPlan;
import io.thriftbq.local.config.BadFlagException;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.RunTables;
import io.thriftbq.local.source.KafkaSource;
import io.thriftbq.local.source.PubsubSource;
import io.thriftbq.local.stack.CpuPriority;
import java.util.List;

/**
 * Plans the ingestion pipeline's flags of a run before any server starts, so that a flag the
 * pipeline refuses (an {@code --ingest-arg} it does not know, or one that does not go with the
 * step) fails the run at once with the pipeline's own message, not after the emulators started. The
 * flags are the run's own, with stand-ins for the addresses the servers will have: planning talks
 * to no server.
 */
public final class LaunchCheck {
  /** Where no server listens: the plan never connects, and the stand-ins are never used. */
  private static final String NO_SERVER = "127.0.0.1:1";

  private LaunchCheck() {}

  /**
   * Checks the flags of {@code config}'s run (each compared step's with {@code --compare-steps}).
   *
   * @throws BadFlagException saying what the pipeline refused and what to change
   */
  public static void check(LocalRunConfig config) {
    CpuPriority.niceness(System.getenv());
    if (config.compareSteps()) {
      config
          .comparedSteps()
          .forEach(step -> checkOne(config.forComparedStep(step, "launch_check")));
    } else {
      checkOne(config);
    }
  }

  private static void checkOne(LocalRunConfig config) {
    List<String> args = flags(config);
    try {
      IngestionPlan.of(Ingestion.options(args), IngestionPlan.Input.SOURCE);
    } catch (IllegalArgumentException e) {
      List<String> userFlags = config.engine().extraPipelineArgs();
      throw new BadFlagException(
          "the ingestion pipeline refuses step "
              + config.step().number()
              + "'s flags"
              + (userFlags.isEmpty() ? "" : " with --ingest-arg " + String.join(" ", userFlags))
              + ": "
              + e.getMessage());
    }
  }

  /**
   * The run's ingestion flags, with stand-ins for the servers' addresses and the source's names.
   */
  static List<String> flags(LocalRunConfig config) {
    List<String> source =
        switch (config.source()) {
          case PUBSUB ->
              PubsubSource.ingestionArgs(
                  "http://" + NO_SERVER,
                  "projects/" + LocalRunConfig.PROJECT + "/subscriptions/launch-check");
          case KAFKA -> KafkaSource.ingestionArgs(NO_SERVER, "launch-check", "launch-check");
        };
    RunTables tables =
        RunTables.forTypes(config.tableName(), GeneratorArgs.mixFor(config).eventTypes());
    return IngestionArgs.of(config)
        .toList(source, LocalRunConfig.PROJECT, "http://" + NO_SERVER, tables);
  }
}
