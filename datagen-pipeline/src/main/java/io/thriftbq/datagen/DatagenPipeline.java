package io.thriftbq.datagen;

import io.thriftbq.codec.EventAttributes;
import io.thriftbq.codec.EventEnvelope;
import io.thriftbq.schema.EventTypes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubIO;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data generator: random instances of a Thrift struct, published to Pub/Sub at a set rate. See
 * docs/DATAGEN.md for how to run it and for its options.
 */
public final class DatagenPipeline {
  private static final Logger LOG = LoggerFactory.getLogger(DatagenPipeline.class);

  /**
   * Largest message the generator publishes. Pub/Sub accepts 10 MB per message, and Beam's default
   * JSON client sends data base64-encoded (4/3 larger) inside a 10 MB request.
   */
  public static final int MAX_MESSAGE_BYTES = 7_000_000;

  /** Most events per envelope; also keeps a reader's per-message work bounded. */
  public static final int MAX_RECORDS_PER_BATCH_LIMIT = 10_000;

  private static final Pattern TOPIC = Pattern.compile("projects/[^/\\s]+/topics/[^/\\s]+");

  private DatagenPipeline() {}

  public static void main(String[] args) {
    PipelineOptionsFactory.register(DatagenOptions.class);
    DatagenOptions options =
        PipelineOptionsFactory.fromArgs(args).withValidation().as(DatagenOptions.class);
    buildPipeline(options).run();
  }

  /**
   * Validates the options and builds the pipeline: generate, then {@code PubsubIO.writeMessages()}
   * to {@code --outputTopic}. An unbounded run ({@code --maxEvents=0}) switches on streaming.
   *
   * @throws IllegalArgumentException listing every invalid option and what to change
   */
  public static Pipeline buildPipeline(DatagenOptions options) {
    GeneratorConfig config = validate(options);
    RatePlan plan =
        RatePlan.of(
            options.getGeneratorRatePerSec(),
            options.getMaxRecordsPerBatch(),
            options.getMaxEvents());
    if (!plan.bounded()) {
      options.setStreaming(true);
    }
    LOG.info(
        "Generating {} to {}: {} events/s{}, {} event(s) per message, {}",
        config.describeEvents(),
        options.getOutputTopic(),
        plan.throttled() ? plan.eventsPerSecond() : "unthrottled",
        plan.bounded() ? ", " + plan.maxEvents() + " events in total" : ", until drained",
        plan.batchSize(),
        config);
    Pipeline pipeline = Pipeline.create(options);
    pipeline
        .apply("GenerateMessages", new GenerateMessages(config, plan))
        .apply("PublishToPubSub", PubsubIO.writeMessages().to(options.getOutputTopic()));
    return pipeline;
  }

  /**
   * Checks every option and returns the generator configuration.
   *
   * @throws IllegalArgumentException listing every problem found, each with what to change
   */
  public static GeneratorConfig validate(DatagenOptions options) {
    List<String> problems = new ArrayList<>();
    String topic = options.getOutputTopic();
    if (topic == null || topic.isBlank()) {
      problems.add("--outputTopic is required: set it to projects/PROJECT/topics/TOPIC");
    } else if (!TOPIC.matcher(topic).matches()) {
      problems.add(
          "--outputTopic="
              + topic
              + " is not a topic path: use projects/PROJECT/topics/TOPIC (the full path, not the"
              + " short name)");
    } else {
      try {
        PubsubIO.PubsubTopic.fromPath(topic);
      } catch (IllegalArgumentException e) {
        problems.add(
            "--outputTopic=" + topic + " is not a valid Pub/Sub topic (" + e.getMessage() + ")");
      }
    }
    if (options.getGeneratorRatePerSec() < 0) {
      problems.add(
          "--generatorRatePerSec="
              + options.getGeneratorRatePerSec()
              + " is negative: use events per second, or 0 for as fast as possible");
    }
    if (options.getMaxEvents() < 0) {
      problems.add(
          "--maxEvents="
              + options.getMaxEvents()
              + " is negative: use a count, or 0 for unbounded");
    }
    int batch = options.getMaxRecordsPerBatch();
    if (batch < 1 || batch > MAX_RECORDS_PER_BATCH_LIMIT) {
      problems.add(
          "--maxRecordsPerBatch="
              + batch
              + " is outside 1.."
              + MAX_RECORDS_PER_BATCH_LIMIT
              + ": use 1 for one event per message, more for compressed envelopes");
    }
    GeneratorConfig config = null;
    try {
      config = GeneratorConfig.fromOptions(options);
      problems.addAll(config.problems());
    } catch (IllegalArgumentException e) {
      problems.add(e.getMessage());
    }
    if (config != null && config.isMix()) {
      problems.addAll(structAttributeProblems(config.eventTypes().attribute()));
    }
    if (problems.isEmpty()) {
      // Building the generators checks the classes and the skewed paths; sampling the first
      // message of each type catches a batch that cannot fit Pub/Sub before any worker starts.
      try {
        EventMix mix = new EventMix(config);
        for (int type = 0; type < mix.size(); type++) {
          long size = firstMessageSize(mix.generator(type), batch);
          if (size > MAX_MESSAGE_BYTES) {
            problems.add(
                "The first message"
                    + (mix.size() > 1 ? " of " + mix.type(type).name() : "")
                    + " would be "
                    + size
                    + " bytes, above the "
                    + MAX_MESSAGE_BYTES
                    + "-byte limit for Pub/Sub: lower --maxRecordsPerBatch, --maxStringLength or"
                    + " --maxCollectionSize");
            break;
          }
        }
      } catch (IllegalArgumentException e) {
        problems.add(e.getMessage());
      }
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(
          "Invalid data generator options:\n  - " + String.join("\n  - ", problems));
    }
    return config;
  }

  /**
   * The attribute naming each message's struct must not be one the generator already sets (it would
   * be overwritten, and the ingestion side would route by an id) nor one Pub/Sub refuses.
   */
  private static List<String> structAttributeProblems(String attribute) {
    if (attribute == null) {
      return List.of(); // a union: the member names the type, no attribute is set
    }
    List<String> reserved =
        List.of(
            EventAttributes.EVENT_TIME_MS,
            EventAttributes.EVENT_ID,
            EventEnvelope.ENVELOPE_ATTRIBUTE,
            EventEnvelope.RECORD_COUNT_ATTRIBUTE);
    if (reserved.contains(attribute)) {
      return List.of(
          "--structAttribute="
              + attribute
              + " is an attribute the generator already sets ("
              + String.join(", ", reserved)
              + "): choose another name, for example "
              + EventTypes.DEFAULT_STRUCT_ATTRIBUTE);
    }
    if (attribute.startsWith("goog") || attribute.getBytes(StandardCharsets.UTF_8).length > 256) {
      return List.of(
          "--structAttribute="
              + attribute
              + " is not an attribute Pub/Sub accepts (it may not start with goog and has at most"
              + " 256 bytes): choose another name, for example "
              + EventTypes.DEFAULT_STRUCT_ATTRIBUTE);
    }
    return List.of();
  }

  private static long firstMessageSize(RandomEventGenerator generator, int batch) {
    if (batch == 1) {
      return generator.serializeToBuffer(0);
    }
    try (EventEnvelope.Encoder encoder = new EventEnvelope.Encoder()) {
      for (int i = 0; i < batch; i++) {
        int length = generator.serializeToBuffer(i); // first: it may replace the buffer
        encoder.add(generator.buffer(), 0, length);
        if (encoder.uncompressedBytes() > 16 * MAX_MESSAGE_BYTES) {
          // Even at 16:1 compression it would not fit; no need to compress it to know.
          return encoder.uncompressedBytes() / 16;
        }
      }
      return encoder.finish().length;
    }
  }
}
