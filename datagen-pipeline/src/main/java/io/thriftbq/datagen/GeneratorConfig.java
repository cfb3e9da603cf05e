package io.thriftbq.datagen;

import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.schema.EventTypes;
import io.thriftbq.schema.ThriftSource;
import io.thriftbq.schema.ThriftSources;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What {@link RandomEventGenerator} produces: the struct, the seed and the shape of the values.
 * Immutable and serializable, so a pipeline ships it to workers and every worker builds an
 * identical generator from it. Build one with {@link #builder()} or {@link
 * #fromOptions(DatagenOptions)}.
 */
public final class GeneratorConfig implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Longest string a generator cuts from its text (its text is 1 MiB). */
  public static final int MAX_STRING_LENGTH_LIMIT = TextCorpus.SIZE;

  /** Largest list, set or map; beyond this a single event would not fit a Pub/Sub message. */
  public static final int MAX_COLLECTION_SIZE_LIMIT = 10_000;

  private final ThriftSource source;
  private final @Nullable EventTypes mix;
  private final long seed;
  private final boolean completeObjects;
  private final double optionalFieldProbability;
  private final int minStringLength;
  private final int maxStringLength;
  private final int maxCollectionSize;
  private final List<String> fieldsWithSkew;
  private final long skewCardinality;
  private final double skewExponent;
  private final ThriftProtocol protocol;

  private GeneratorConfig(Builder b) {
    this.source = b.source;
    this.mix = b.mix;
    this.seed = b.seed;
    this.completeObjects = b.completeObjects;
    this.optionalFieldProbability = b.optionalFieldProbability;
    this.minStringLength = b.minStringLength;
    this.maxStringLength = b.maxStringLength;
    this.maxCollectionSize = b.maxCollectionSize;
    this.fieldsWithSkew = List.copyOf(b.fieldsWithSkew);
    this.skewCardinality = b.skewCardinality;
    this.skewExponent = b.skewExponent;
    this.protocol = b.protocol;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The generator part of the pipeline options (not validated; see {@link #problems()}). */
  public static GeneratorConfig fromOptions(DatagenOptions options) {
    return builder()
        .eventTypes(eventTypesOf(options))
        .seed(options.getSeed())
        .completeObjects(options.getCompleteObjects())
        .optionalFieldProbability(options.getOptionalFieldProbability())
        .minStringLength(options.getMinStringLength())
        .maxStringLength(options.getMaxStringLength())
        .maxCollectionSize(options.getMaxCollectionSize())
        .fieldsWithSkew(parseFieldList(options.getFieldsWithSkew()))
        .skewCardinality(options.getSkewCardinality())
        .skewExponent(options.getSkewExponent())
        .protocol(options.getThriftProtocol())
        .build();
  }

  /**
   * The struct the options name: {@code --thriftIdl} with {@code --thriftStruct}, or {@code
   * --className}, or the sample event when neither is given.
   *
   * @throws IllegalArgumentException when both are given, or the IDL cannot be used; the message
   *     says what to change
   */
  public static ThriftSource sourceOf(DatagenOptions options) {
    return ThriftSources.choose(options, "--className", options.getClassName());
  }

  /**
   * The event types the options name: one struct as {@link #sourceOf}, or several with {@code
   * --thriftStructs} (weights allowed) or {@code --thriftUnion}.
   *
   * @throws IllegalArgumentException when the options contradict each other or the IDL cannot be
   *     used; the message says what to change
   */
  public static EventTypes eventTypesOf(DatagenOptions options) {
    return EventTypes.choose(options, "--className", options.getClassName(), true);
  }

  private static boolean isSet(String value) {
    return value != null && !value.isBlank();
  }

  /** Splits a comma-separated list of field paths, ignoring blanks. */
  public static List<String> parseFieldList(String commaSeparated) {
    return ThriftSources.splitList(commaSeparated);
  }

  /**
   * Everything wrong with the numbers in this configuration, each as a sentence that names the
   * option to change; empty when valid. The struct and the skewed field paths are checked when a
   * generator is built from it.
   */
  public List<String> problems() {
    List<String> problems = new ArrayList<>();
    if (source == null
        || (source instanceof ThriftSource.GeneratedClass generated
            && !isSet(generated.className()))) {
      problems.add(
          "No struct to generate: set --thriftIdl and --thriftStruct, or --className to a"
              + " Thrift-generated struct class");
    }
    if (!(optionalFieldProbability >= 0 && optionalFieldProbability <= 1)) {
      problems.add(
          "--optionalFieldProbability="
              + optionalFieldProbability
              + " is not a probability: use a value from 0 to 1");
    }
    if (minStringLength < 0) {
      problems.add("--minStringLength=" + minStringLength + " is negative: use 0 or more");
    }
    if (maxStringLength < minStringLength) {
      problems.add(
          "--maxStringLength="
              + maxStringLength
              + " is below --minStringLength="
              + minStringLength
              + ": raise --maxStringLength or lower --minStringLength");
    }
    if (maxStringLength > MAX_STRING_LENGTH_LIMIT) {
      problems.add(
          "--maxStringLength="
              + maxStringLength
              + " exceeds "
              + MAX_STRING_LENGTH_LIMIT
              + ": lower it");
    }
    if (maxCollectionSize < 0 || maxCollectionSize > MAX_COLLECTION_SIZE_LIMIT) {
      problems.add(
          "--maxCollectionSize="
              + maxCollectionSize
              + " is outside 0.."
              + MAX_COLLECTION_SIZE_LIMIT
              + ": choose a size in that range");
    }
    if (skewCardinality < 1) {
      problems.add(
          "--skewCardinality="
              + skewCardinality
              + " must be at least 1 (the number of distinct values a skewed field takes)");
    }
    if (!(skewExponent >= 0) || Double.isInfinite(skewExponent)) {
      problems.add(
          "--skewExponent="
              + skewExponent
              + " must be a finite number >= 0 (0 = uniform over --skewCardinality values, 1 ="
              + " Zipf, larger = more concentrated)");
    }
    if (protocol == null) {
      problems.add("--thriftProtocol is missing: use BINARY or COMPACT");
    }
    return problems;
  }

  /**
   * Where the struct's description comes from (a generated class or an IDL read at launch). With
   * several event types ({@link #isMix()}) it is the first of them; {@link EventMix} generates all.
   */
  public ThriftSource source() {
    return source;
  }

  /**
   * Whether this names several event types (or a union's members): generate with {@link EventMix}.
   */
  public boolean isMix() {
    return mix != null;
  }

  /** The event types: several for a mix, else the one struct of {@link #source()}. */
  public EventTypes eventTypes() {
    return mix != null ? mix : EventTypes.single(source);
  }

  /** The event types as a user would write them, for logs and messages. */
  public String describeEvents() {
    if (mix == null) {
      return source == null ? "no struct" : source.describe();
    }
    String weighted =
        mix.types().stream()
            .map(type -> type.name() + ":" + type.weight())
            .collect(Collectors.joining(","));
    return mix.layout() == EventTypes.Layout.UNION
        ? "--thriftUnion=" + mix.union().name() + " members " + weighted
        : "--thriftStructs=" + weighted + " named by attribute " + mix.attribute();
  }

  public long seed() {
    return seed;
  }

  public boolean completeObjects() {
    return completeObjects;
  }

  public double optionalFieldProbability() {
    return optionalFieldProbability;
  }

  public int minStringLength() {
    return minStringLength;
  }

  public int maxStringLength() {
    return maxStringLength;
  }

  public int maxCollectionSize() {
    return maxCollectionSize;
  }

  public List<String> fieldsWithSkew() {
    return fieldsWithSkew;
  }

  public long skewCardinality() {
    return skewCardinality;
  }

  public double skewExponent() {
    return skewExponent;
  }

  public ThriftProtocol protocol() {
    return protocol;
  }

  public Builder toBuilder() {
    Builder builder = mix != null ? builder().eventTypes(mix) : builder().source(source);
    return builder
        .seed(seed)
        .completeObjects(completeObjects)
        .optionalFieldProbability(optionalFieldProbability)
        .minStringLength(minStringLength)
        .maxStringLength(maxStringLength)
        .maxCollectionSize(maxCollectionSize)
        .fieldsWithSkew(fieldsWithSkew)
        .skewCardinality(skewCardinality)
        .skewExponent(skewExponent)
        .protocol(protocol);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof GeneratorConfig)) {
      return false;
    }
    GeneratorConfig c = (GeneratorConfig) o;
    return seed == c.seed
        && completeObjects == c.completeObjects
        && Double.compare(optionalFieldProbability, c.optionalFieldProbability) == 0
        && minStringLength == c.minStringLength
        && maxStringLength == c.maxStringLength
        && maxCollectionSize == c.maxCollectionSize
        && skewCardinality == c.skewCardinality
        && Double.compare(skewExponent, c.skewExponent) == 0
        && Objects.equals(source, c.source)
        && Objects.equals(mix, c.mix)
        && fieldsWithSkew.equals(c.fieldsWithSkew)
        && protocol == c.protocol;
  }

  @Override
  public int hashCode() {
    return Objects.hash(source, seed, fieldsWithSkew, protocol);
  }

  @Override
  public String toString() {
    return "GeneratorConfig{"
        + describeEvents()
        + ", seed="
        + seed
        + ", completeObjects="
        + completeObjects
        + ", optionalFieldProbability="
        + optionalFieldProbability
        + ", stringLength="
        + minStringLength
        + ".."
        + maxStringLength
        + ", maxCollectionSize="
        + maxCollectionSize
        + ", fieldsWithSkew="
        + fieldsWithSkew
        + ", skewCardinality="
        + skewCardinality
        + ", skewExponent="
        + skewExponent
        + ", protocol="
        + protocol
        + "}";
  }

  /** Starts from the same defaults as {@link DatagenOptions}. */
  public static final class Builder {
    private ThriftSource source = ThriftSource.generatedClass(DatagenOptions.DEFAULT_CLASS_NAME);
    private @Nullable EventTypes mix;
    private long seed = DatagenOptions.DEFAULT_SEED;
    private boolean completeObjects = false;
    private double optionalFieldProbability = DatagenOptions.DEFAULT_OPTIONAL_FIELD_PROBABILITY;
    private int minStringLength = DatagenOptions.DEFAULT_MIN_STRING_LENGTH;
    private int maxStringLength = DatagenOptions.DEFAULT_MAX_STRING_LENGTH;
    private int maxCollectionSize = DatagenOptions.DEFAULT_MAX_COLLECTION_SIZE;
    private List<String> fieldsWithSkew = List.of();
    private long skewCardinality = DatagenOptions.DEFAULT_SKEW_CARDINALITY;
    private double skewExponent = DatagenOptions.DEFAULT_SKEW_EXPONENT;
    private ThriftProtocol protocol = ThriftProtocol.BINARY;

    private Builder() {}

    /** A Thrift-generated class; see {@link #source(ThriftSource)} for an IDL. */
    public Builder className(String className) {
      return source(ThriftSource.generatedClass(className));
    }

    /** One struct (replaces event types set before). */
    public Builder source(ThriftSource source) {
      this.source = source;
      this.mix = null;
      return this;
    }

    /**
     * The event types of {@link EventTypes#choose}: one struct is the same as {@link
     * #source(ThriftSource)}; several make a mix that {@link EventMix} generates.
     */
    public Builder eventTypes(EventTypes types) {
      this.source = types.types().get(0).source();
      this.mix = types.isSingle() ? null : types;
      return this;
    }

    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    public Builder completeObjects(boolean completeObjects) {
      this.completeObjects = completeObjects;
      return this;
    }

    public Builder optionalFieldProbability(double probability) {
      this.optionalFieldProbability = probability;
      return this;
    }

    public Builder minStringLength(int length) {
      this.minStringLength = length;
      return this;
    }

    public Builder maxStringLength(int length) {
      this.maxStringLength = length;
      return this;
    }

    public Builder maxCollectionSize(int size) {
      this.maxCollectionSize = size;
      return this;
    }

    public Builder fieldsWithSkew(List<String> paths) {
      this.fieldsWithSkew = List.copyOf(paths);
      return this;
    }

    public Builder fieldsWithSkew(String... paths) {
      return fieldsWithSkew(Arrays.asList(paths));
    }

    public Builder skewCardinality(long cardinality) {
      this.skewCardinality = cardinality;
      return this;
    }

    public Builder skewExponent(double exponent) {
      this.skewExponent = exponent;
      return this;
    }

    public Builder protocol(ThriftProtocol protocol) {
      this.protocol = protocol;
      return this;
    }

    public GeneratorConfig build() {
      return new GeneratorConfig(this);
    }
  }
}
