package io.thriftbq.local.run;

import io.thriftbq.datagen.DatagenPipeline;
import io.thriftbq.datagen.EventMix;
import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.engine.PipelineControl;
import io.thriftbq.local.progress.LandedRows;
import io.thriftbq.local.progress.PipelineMetrics;
import io.thriftbq.local.progress.Publishing;
import io.thriftbq.local.result.RunResult;
import io.thriftbq.local.source.EventSource;
import io.thriftbq.local.source.MalformedMessages;
import io.thriftbq.local.source.PacedPublisher;
import io.thriftbq.local.source.PublishingSchedule;
import io.thriftbq.local.source.SourceMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;
import org.apache.beam.sdk.PipelineResult;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A run's publishing into its source: the generated events (by the paced publisher, or by the
 * generator pipeline with {@code --generator-pipeline}) and, spread among them, the malformed
 * messages.
 */
final class EventPublishing implements Publishing, AutoCloseable {
  private final CompletableFuture<PipelineResult.State> eventsDone;
  private final CompletableFuture<Void> malformedDone;
  private final AtomicLong malformedPublished = new AtomicLong();
  private final int malformedCount;
  private final LongSupplier eventsPublished;
  private final @Nullable PacedPublisher pacedPublisher;
  private final @Nullable PipelineResult generatorPipeline;
  private final @Nullable PipelineReadiness readiness;

  private EventPublishing(
      LocalRunConfig config,
      EventSource source,
      List<String> generatorArgs,
      EventMix generator,
      @Nullable LongFunction<SourceMessage> changeStream,
      List<MalformedMessages.Malformed> malformed,
      LandedRows landed) {
    this.malformedCount = malformed.size();
    PublishingSchedule schedule = new PublishingSchedule(config.rate(), config.rampUpMillis());
    PipelineReadiness gate = null;
    if (config.generatorPipeline()) {
      PipelineResult pipeline =
          DatagenPipeline.buildPipeline(GeneratorArgs.options(generatorArgs)).run();
      generatorPipeline = pipeline;
      pacedPublisher = null;
      eventsDone = CompletableFuture.supplyAsync(pipeline::waitUntilFinish);
      eventsPublished = () -> PipelineMetrics.generatorPublished(pipeline);
    } else {
      PacedPublisher publisher =
          (changeStream != null
                  ? new PacedPublisher(source, changeStream, config.events(), config.rate())
                  : new PacedPublisher(
                      source,
                      generator,
                      config.events(),
                      config.rate(),
                      config.recordsPerMessage()))
              .rampingUpOver(schedule.rampMillis());
      // A change stream's first message may be a delete, which writes no row to wait for.
      if (changeStream == null) {
        gate = new PipelineReadiness(landed);
        publisher.leadingOneMessage(gate::await);
      }
      generatorPipeline = null;
      pacedPublisher = publisher;
      eventsDone = publisher.runAsync().thenApply(done -> PipelineResult.State.DONE);
      eventsPublished = publisher::published;
    }
    readiness = gate;
    long runMillis = schedule.millisFor(config.events());
    // The malformed messages are spread over the paced part; a publisher that failed before it
    // releases them too (its failure is reported apart).
    CompletableFuture<?> publishingPaced =
        readiness == null
            ? CompletableFuture.completedFuture(null)
            : CompletableFuture.anyOf(readiness.waitedMillis(), eventsDone)
                .handle((result, failure) -> null);
    malformedDone =
        publishingPaced.thenRunAsync(
            () ->
                MalformedMessages.publishSpread(source, malformed, runMillis, malformedPublished));
  }

  /**
   * How long the paced publisher waited for the pipeline's first row before pacing: -1 when it did
   * not wait, {@link RunResult#GAVE_UP_WAITING} when it went on without one.
   */
  long waitedForPipelineMillis() {
    return readiness == null ? -1 : readiness.waitedMillis().getNow(-1L);
  }

  /** Starts publishing. */
  static EventPublishing start(
      LocalRunConfig config,
      EventSource source,
      List<String> generatorArgs,
      EventMix generator,
      @Nullable LongFunction<SourceMessage> changeStream,
      List<MalformedMessages.Malformed> malformed,
      LandedRows landed) {
    return new EventPublishing(
        config, source, generatorArgs, generator, changeStream, malformed, landed);
  }

  long eventsPublished() {
    return eventsPublished.getAsLong();
  }

  @Override
  public long published() {
    return eventsPublished.getAsLong() + malformedPublished.get();
  }

  @Override
  public boolean eventsDone() {
    return eventsDone.isDone();
  }

  @Override
  public boolean allDone() {
    return eventsDone.isDone() && malformedDone.isDone();
  }

  @Override
  public int malformedCount() {
    return malformedCount;
  }

  @Override
  public OptionalDouble publisherCpuSeconds() {
    return pacedPublisher == null
        ? OptionalDouble.empty()
        : OptionalDouble.of(pacedPublisher.cpuSeconds());
  }

  /** Payload bytes published, when the paced publisher counted them; else 0. */
  long payloadBytes() {
    return pacedPublisher == null ? 0 : pacedPublisher.publishedBytes();
  }

  /**
   * How long publishing the events took by the publisher's own clock (the once-a-second poll
   * notices the end late when queries are slow), or -1 when it does not say.
   */
  long publisherMillis() {
    return pacedPublisher == null ? -1 : pacedPublisher.runMillis();
  }

  /** What went wrong publishing, if anything. */
  List<String> problems() {
    List<String> problems = new ArrayList<>();
    if (eventsDone.isCompletedExceptionally()) {
      problems.add("Publishing the generated events failed");
    } else if (eventsDone.isDone() && eventsDone.join() != PipelineResult.State.DONE) {
      problems.add("The generator ended in state " + eventsDone.join());
    }
    if (malformedDone.isCompletedExceptionally()) {
      problems.add("Publishing the malformed messages failed");
    }
    return problems;
  }

  @Override
  public void close() {
    if (generatorPipeline != null) {
      PipelineControl.cancelQuietly(generatorPipeline);
    }
  }
}
