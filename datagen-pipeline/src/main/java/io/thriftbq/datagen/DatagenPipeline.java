package io.thriftbq.datagen;

import io.thriftbq.change.ChangeSpec.SequenceSource;
import io.thriftbq.codec.EventAttributes;
import io.thriftbq.codec.EventEnvelope;
import io.thriftbq.kafka.KafkaAuthentication;
import io.thriftbq.kafka.KafkaClientConfig;
import io.thriftbq.kafka.KafkaClientRole;
import io.thriftbq.schema.EventTypes;
import io.thriftbq.template.PubsubNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubIO;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.values.PCollection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data generator: random instances of a Thrift struct, published to Pub/Sub or Kafka at a set
 * rate. See docs/DATAGEN.md for how to run it and for its options.
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

  /** The Kafka producer's default {@code max.request.size}. */
  public static final int KAFKA_DEFAULT_MAX_REQUEST_SIZE = 1_048_576;

  /**
   * Room left in a Kafka request for what surrounds a payload: the record batch header, the
   * record's own fields, the key (a decimal event id) and the headers (the attributes, the struct
   * attribute's name and value at most 256 bytes each).
   */
  static final int KAFKA_RECORD_OVERHEAD_BYTES = 1024;

  private static final String MAX_REQUEST_SIZE = "max.request.size";

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
   * to {@code --outputTopic}, or {@link KafkaSink} to {@code --kafkaTopic}. An unbounded run
   * ({@code --maxEvents=0}) switches on streaming.
   *
   * @throws IllegalArgumentException listing every invalid option and what to change
   */
  public static Pipeline buildPipeline(DatagenOptions options) {
    GeneratorConfig config = validate(options);
    boolean kafka = options.getSink() == DatagenOptions.Sink.KAFKA;
    RatePlan plan =
        RatePlan.of(
            options.getGeneratorRatePerSec(),
            options.getMaxRecordsPerBatch(),
            options.getMaxEvents());
    if (!plan.bounded()) {
      options.setStreaming(true);
    }
    if (kafka) {
      List<String> unknown =
          KafkaClientConfig.unknownProperties(
              KafkaClientRole.PRODUCER, options.getKafkaProducerProperty());
      if (!unknown.isEmpty()) {
        LOG.warn(
            "--kafkaProducerProperty sets {}, which the Kafka producer does not know (a typo, or a"
                + " plugin's setting): Kafka ignores them",
            unknown);
      }
    }
    LOG.info(
        "Generating {} to {}: {} events/s{}, {} event(s) per message, {}",
        config.describeEvents(),
        kafka
            ? "Kafka topic "
                + options.getKafkaTopic()
                + " on "
                + options.getKafkaBootstrapServers()
                + " ("
                + options.getKafkaAuthentication()
                + ")"
            : options.getOutputTopic(),
        plan.throttled() ? plan.eventsPerSecond() : "unthrottled",
        plan.bounded() ? ", " + plan.maxEvents() + " events in total" : ", until drained",
        plan.batchSize(),
        config);
    Pipeline pipeline = Pipeline.create(options);
    PCollection<PubsubMessage> messages;
    if (changeMode(options)) {
      ChangeStreamConfig change = ChangeStreamConfig.fromOptions(options, new ArrayList<>());
      writeExpectedState(options, config, change);
      messages =
          pipeline.apply(
              "GenerateChanges", new GenerateChangeMessages(config, change, plan, limit(options)));
    } else {
      messages =
          pipeline.apply("GenerateMessages", new GenerateMessages(config, plan, limit(options)));
    }
    if (kafka) {
      Map<String, Object> producerProperties =
          KafkaClientConfig.clientProperties(
              KafkaClientRole.PRODUCER,
              options.getKafkaAuthentication(),
              options.getKafkaProducerProperty());
      messages.apply(
          "PublishToKafka",
          KafkaSink.to(
              options.getKafkaBootstrapServers().trim(),
              options.getKafkaTopic(),
              producerProperties));
    } else {
      messages.apply("PublishToPubSub", PubsubIO.writeMessages().to(options.getOutputTopic()));
    }
    return pipeline;
  }

  /** Whether the options ask for a change stream: {@code --primaryKey} is set. */
  public static boolean changeMode(DatagenOptions options) {
    return options.getPrimaryKey() != null && !options.getPrimaryKey().isBlank();
  }

  /**
   * Writes the change stream's expected state to {@code --expectedStateFile}, if set: the winners
   * of the first {@code --maxEvents} messages. Assumes the options are valid.
   */
  static void writeExpectedState(
      DatagenOptions options, GeneratorConfig config, ChangeStreamConfig change) {
    String file = options.getExpectedStateFile();
    if (file == null || file.isBlank()) {
      return;
    }
    Path path = Path.of(file.trim());
    ExpectedState state = new ChangeStream(config, change).expectedState(options.getMaxEvents());
    try {
      state.write(path);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot write --expectedStateFile=" + file + ": " + e.getMessage(), e);
    }
    LOG.info(
        "Wrote the expected state of {} changes to {}: {} keys, {} with a row",
        options.getMaxEvents(),
        path.toAbsolutePath(),
        state.entries().size(),
        state.rows().size());
  }

  /**
   * The problems of the change-stream options: with {@code --primaryKey}, those of the flags and of
   * the run (bounded, one event per message, a sequence the sink has); without, any change-stream
   * flag that is set. Returns the parsed configuration, or null.
   */
  private static ChangeStreamConfig changeProblems(DatagenOptions options, List<String> problems) {
    if (!changeMode(options)) {
      List<String> set = new ArrayList<>();
      addIfSet(set, "--changeType", options.getChangeType() != null);
      addIfSet(set, "--changeSequence", options.getChangeSequence() != null);
      addIfSet(set, "--upsertValues", options.getUpsertValues() != null);
      addIfSet(set, "--deleteValues", options.getDeleteValues() != null);
      addIfSet(set, "--changeKeys", options.getChangeKeys() != ChangeStreamConfig.DEFAULT_KEYS);
      addIfSet(
          set,
          "--changeUpdateRatio",
          options.getChangeUpdateRatio() != ChangeStreamConfig.DEFAULT_UPDATE_RATIO);
      addIfSet(set, "--changeDeleteRatio", options.getChangeDeleteRatio() != 0);
      addIfSet(set, "--changeDuplicateRatio", options.getChangeDuplicateRatio() != 0);
      addIfSet(set, "--changeReorderRatio", options.getChangeReorderRatio() != 0);
      addIfSet(
          set,
          "--expectedStateFile",
          options.getExpectedStateFile() != null && !options.getExpectedStateFile().isBlank());
      if (!set.isEmpty()) {
        problems.add(
            String.join(", ", set)
                + (set.size() == 1 ? " is" : " are")
                + " for change streams, which --primaryKey turns on: set --primaryKey, or drop "
                + (set.size() == 1 ? "it" : "them"));
      }
      return null;
    }
    if (options.getMaxEvents() <= 0) {
      problems.add(
          "--primaryKey makes a change stream, whose expected final state needs a bounded run:"
              + " set --maxEvents to the number of messages");
    }
    if (options.getMaxRecordsPerBatch() != 1) {
      problems.add(
          "--maxRecordsPerBatch="
              + options.getMaxRecordsPerBatch()
              + " packs events into envelopes, whose attributes all their events share: a change"
              + " stream publishes one change per message; use --maxRecordsPerBatch=1");
    }
    ChangeStreamConfig change = ChangeStreamConfig.fromOptions(options, problems);
    if (change == null) {
      return null;
    }
    boolean kafka = options.getSink() == DatagenOptions.Sink.KAFKA;
    if (kafka && change.spec().sequence() instanceof SequenceSource.PublishTime) {
      problems.add(
          "--changeSequence=PUBLISH_TIME is Pub/Sub's publish time, and --sink=KAFKA publishes to"
              + " Kafka: use KAFKA_OFFSET or field:NAME, or --sink=PUBSUB");
    }
    if (!kafka && change.spec().sequence() instanceof SequenceSource.KafkaOffset) {
      problems.add(
          "--changeSequence=KAFKA_OFFSET is a Kafka record's offset, and --sink="
              + options.getSink()
              + " publishes to Pub/Sub: use PUBLISH_TIME or field:NAME, or --sink=KAFKA");
    }
    return change;
  }

  private static void addIfSet(List<String> names, String flag, boolean set) {
    if (set) {
      names.add(flag);
    }
  }

  /**
   * The largest message the sink takes: Pub/Sub's, or what the Kafka producer's {@code
   * max.request.size} leaves for the payload. Assumes the options are valid.
   */
  static MessageLimit limit(DatagenOptions options) {
    if (options.getSink() != DatagenOptions.Sink.KAFKA) {
      return MessageLimit.PUBSUB;
    }
    Integer maxRequestSize = maxRequestSize(options, new ArrayList<>());
    int request = maxRequestSize == null ? KAFKA_DEFAULT_MAX_REQUEST_SIZE : maxRequestSize;
    return new MessageLimit(
        Math.max(1, request - KAFKA_RECORD_OVERHEAD_BYTES),
        "Kafka (the producer's "
            + MAX_REQUEST_SIZE
            + " of "
            + request
            + " bytes, less "
            + KAFKA_RECORD_OVERHEAD_BYTES
            + " for the record's key and headers)",
        "raise --kafkaProducerProperty="
            + MAX_REQUEST_SIZE
            + "=BYTES (and the topic's max.message.bytes)");
  }

  /** The producer's max.request.size if the properties set it, else null; problems if malformed. */
  private static Integer maxRequestSize(DatagenOptions options, List<String> problems) {
    String value =
        KafkaClientConfig.parseProperties(
                KafkaClientRole.PRODUCER, options.getKafkaProducerProperty(), new ArrayList<>())
            .get(MAX_REQUEST_SIZE);
    if (value == null) {
      return null;
    }
    try {
      int size = Integer.parseInt(value.trim());
      if (size > KAFKA_RECORD_OVERHEAD_BYTES) {
        return size;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    problems.add(
        "--kafkaProducerProperty="
            + MAX_REQUEST_SIZE
            + "="
            + value
            + " is not a byte count above "
            + KAFKA_RECORD_OVERHEAD_BYTES
            + ": give the largest request in bytes (the default is "
            + KAFKA_DEFAULT_MAX_REQUEST_SIZE
            + ")");
    return null;
  }

  private static List<String> pubsubTopicProblems(String topic) {
    if (topic == null || topic.isBlank()) {
      return List.of("--outputTopic is required: set it to projects/PROJECT/topics/TOPIC");
    }
    if (!TOPIC.matcher(topic).matches()) {
      return List.of(
          "--outputTopic="
              + topic
              + " is not a topic path: use projects/PROJECT/topics/TOPIC (the full path, not the"
              + " short name)");
    }
    try {
      PubsubIO.PubsubTopic.fromPath(topic);
    } catch (IllegalArgumentException e) {
      return List.of(
          "--outputTopic=" + topic + " is not a valid Pub/Sub topic (" + e.getMessage() + ")");
    }
    return List.of();
  }

  /** The problems of the sink's options: the chosen sink's are required, the other's refused. */
  private static List<String> sinkProblems(DatagenOptions options) {
    List<String> problems = new ArrayList<>();
    if (options.getSink() == DatagenOptions.Sink.KAFKA) {
      if (options.getOutputTopic() != null) {
        problems.add(
            "--outputTopic is the Pub/Sub topic, and --sink=KAFKA publishes to --kafkaTopic: drop"
                + " --outputTopic, or use --sink=PUBSUB");
      }
      problems.addAll(
          KafkaClientConfig.bootstrapServersProblems(
              options.getKafkaBootstrapServers(), "--sink=KAFKA"));
      problems.addAll(
          KafkaClientConfig.topicProblems("kafkaTopic", options.getKafkaTopic(), "--sink=KAFKA"));
      problems.addAll(
          KafkaClientConfig.problems(
              KafkaClientRole.PRODUCER,
              options.getKafkaAuthentication(),
              options.getKafkaProducerProperty()));
      maxRequestSize(options, problems);
      return problems;
    }
    problems.addAll(pubsubTopicProblems(options.getOutputTopic()));
    List<String> kafkaOnly = new ArrayList<>();
    if (options.getKafkaBootstrapServers() != null) {
      kafkaOnly.add("--kafkaBootstrapServers");
    }
    if (options.getKafkaTopic() != null) {
      kafkaOnly.add("--kafkaTopic");
    }
    if (options.getKafkaProducerProperty() != null
        && !options.getKafkaProducerProperty().isEmpty()) {
      kafkaOnly.add("--kafkaProducerProperty");
    }
    if (options.getKafkaAuthentication() != KafkaAuthentication.NONE) {
      kafkaOnly.add("--kafkaAuthentication");
    }
    if (!kafkaOnly.isEmpty()) {
      problems.add(
          String.join(", ", kafkaOnly)
              + (kafkaOnly.size() == 1 ? " is" : " are")
              + " for --sink=KAFKA, and --sink="
              + options.getSink()
              + " publishes to --outputTopic: add --sink=KAFKA, or drop "
              + (kafkaOnly.size() == 1 ? "it" : "them"));
    }
    return problems;
  }

  /**
   * Checks every option and returns the generator configuration.
   *
   * @throws IllegalArgumentException listing every problem found, each with what to change
   */
  public static GeneratorConfig validate(DatagenOptions options) {
    List<String> problems = sinkProblems(options);
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
    ChangeStreamConfig change = changeProblems(options, problems);
    if (problems.isEmpty()) {
      // Building the generators checks the classes and the skewed paths; sampling the first
      // message of each type catches a batch that cannot fit Pub/Sub before any worker starts.
      try {
        MessageLimit limit = limit(options);
        EventMix mix = new EventMix(config);
        if (change != null) {
          problems.addAll(changeStreamProblems(mix, change, options.getMaxEvents()));
        }
        for (int type = 0; type < mix.size(); type++) {
          long size = firstMessageSize(mix.generator(type), batch, limit.maxBytes());
          if (size > limit.maxBytes()) {
            problems.add(
                "The first message"
                    + (mix.size() > 1 ? " of " + mix.type(type).name() : "")
                    + " would be "
                    + size
                    + " bytes, above "
                    + limit.describe());
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
    if (!PubsubNames.isAttributeKey(attribute)) {
      return List.of(
          "--structAttribute="
              + attribute
              + " is not an attribute Pub/Sub accepts (it may not start with "
              + PubsubNames.RESERVED_ATTRIBUTE_PREFIX
              + " and has at most "
              + PubsubNames.MAX_ATTRIBUTE_KEY_BYTES
              + " bytes): choose another name, for example "
              + EventTypes.DEFAULT_STRUCT_ATTRIBUTE);
    }
    return List.of();
  }

  /**
   * Builds the change stream (which checks the flags against the structs) and walks its plan over
   * the run's messages (which finds a sequence field too narrow for the run): cheap, no events are
   * serialized.
   */
  private static List<String> changeStreamProblems(
      EventMix mix, ChangeStreamConfig change, long messages) {
    List<String> problems = ChangeStream.problems(mix, change);
    if (!problems.isEmpty()) {
      return problems;
    }
    ChangeStream stream = new ChangeStream(mix, change);
    try {
      for (long n = 0; n < messages; n++) {
        stream.nextChange();
      }
    } catch (IllegalStateException e) {
      return List.of(e.getMessage());
    }
    return List.of();
  }

  private static long firstMessageSize(RandomEventGenerator generator, int batch, int maxBytes) {
    if (batch == 1) {
      return generator.serializeToBuffer(0);
    }
    try (EventEnvelope.Encoder encoder = new EventEnvelope.Encoder()) {
      for (int i = 0; i < batch; i++) {
        int length = generator.serializeToBuffer(i); // first: it may replace the buffer
        encoder.add(generator.buffer(), 0, length);
        if (encoder.uncompressedBytes() > 16L * maxBytes) {
          // Even at 16:1 compression it would not fit; no need to compress it to know.
          return encoder.uncompressedBytes() / 16;
        }
      }
      return encoder.finish().length;
    }
  }
}
