package io.thriftbq.kafka;

import io.thriftbq.template.KafkaParameters;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The Kafka client settings of both pipelines, in one place: the security properties of each {@link
 * KafkaAuthentication}, the parsing and checking of the repeatable {@code key=value} property
 * flags, and the checks of the bootstrap servers and topic names. The generator's producer and the
 * ingestion pipeline's consumer both build their settings here, so a cluster one can reach the
 * other can too.
 *
 * <p>Typical use, at launch: collect {@link #problems} (with the pipeline's other launch checks),
 * then hand {@link #clientProperties} to {@code KafkaIO}'s {@code withProducerConfigUpdates} or
 * {@code withConsumerConfigUpdates}, and log {@link #unknownProperties} as a warning.
 *
 * <p>Beam splits a list option's values at commas, so {@code --kafkaProducerProperty=a=1,b=2}
 * arrives as two entries; a piece without {@code =} after an entry is taken back into that entry's
 * value ({@code ssl.enabled.protocols=TLSv1.2,TLSv1.3} stays one property).
 */
public final class KafkaClientConfig {

  /** Google's SASL/OAUTHBEARER login handler for Managed Service for Apache Kafka. */
  public static final String GCP_LOGIN_CALLBACK_HANDLER =
      "com.google.cloud.hosted.kafka.auth.GcpLoginCallbackHandler";

  /** The JAAS entry of the OAUTHBEARER login module; the handler supplies the token. */
  public static final String OAUTHBEARER_JAAS_CONFIG =
      "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;";

  /** The Maven coordinates that hold {@link #GCP_LOGIN_CALLBACK_HANDLER}, for messages. */
  static final String LOGIN_HANDLER_ARTIFACT =
      "com.google.cloud.hosted.kafka:managed-kafka-auth-login-handler";

  /** host:port; the host a name, IPv4 address or bracketed IPv6 address. */
  private static final Pattern SERVER =
      Pattern.compile("(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?):[0-9]{1,5}");

  /** Kafka's own rule for topic names (org.apache.kafka.common.internals.Topic). */
  private static final Pattern TOPIC = Pattern.compile(KafkaParameters.TOPIC_REGEX);

  private KafkaClientConfig() {}

  /**
   * The client properties {@code authentication} needs, in insertion order; empty for {@link
   * KafkaAuthentication#NONE}. The same for producers and consumers.
   */
  public static Map<String, Object> securityProperties(KafkaAuthentication authentication) {
    Map<String, Object> properties = new LinkedHashMap<>();
    if (authentication == KafkaAuthentication.GOOGLE_OAUTH) {
      properties.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_SSL");
      properties.put(SaslConfigs.SASL_MECHANISM, "OAUTHBEARER");
      properties.put(SaslConfigs.SASL_LOGIN_CALLBACK_HANDLER_CLASS, GCP_LOGIN_CALLBACK_HANDLER);
      properties.put(SaslConfigs.SASL_JAAS_CONFIG, OAUTHBEARER_JAAS_CONFIG);
    }
    return Collections.unmodifiableMap(properties);
  }

  /**
   * The {@code key=value} entries of {@code role}'s property flag as a map, in the order given (a
   * key given twice keeps its last value). Malformed entries are skipped and reported in {@code
   * problems}.
   */
  public static Map<String, String> parseProperties(
      KafkaClientRole role, @Nullable List<String> entries, List<String> problems) {
    Map<String, String> properties = new LinkedHashMap<>();
    if (entries == null) {
      return properties;
    }
    String lastKey = null;
    for (String entry : entries) {
      int eq = entry == null ? -1 : entry.indexOf('=');
      if (eq < 0) {
        if (lastKey != null && entry != null && !entry.isBlank()) {
          // Beam split "key=a,b" at the comma: "b" belongs to the previous value.
          properties.put(lastKey, properties.get(lastKey) + "," + entry);
          continue;
        }
        problems.add(
            "--"
                + role.flag()
                + "="
                + entry
                + " is not key=value: write one Kafka client property per flag, for example --"
                + role.flag()
                + "="
                + (role == KafkaClientRole.PRODUCER ? "linger.ms=20" : "fetch.max.bytes=52428800"));
        lastKey = null;
        continue;
      }
      String key = entry.substring(0, eq).trim();
      String value = entry.substring(eq + 1).trim();
      if (key.isEmpty() || key.chars().anyMatch(Character::isWhitespace)) {
        problems.add(
            "--"
                + role.flag()
                + "="
                + entry
                + " has no property name before '=': write key=value, for example --"
                + role.flag()
                + "=client.id=thriftbq");
        lastKey = null;
        continue;
      }
      properties.remove(key); // a repeated key moves to its last position
      properties.put(key, value);
      lastKey = key;
    }
    return properties;
  }

  /**
   * Every problem with the client settings, each saying which flag to change: malformed property
   * entries, properties the pipeline sets itself, security properties that {@code
   * --kafkaAuthentication} already sets, and a {@link KafkaAuthentication#GOOGLE_OAUTH} login
   * handler missing from the classpath.
   */
  public static List<String> problems(
      KafkaClientRole role, KafkaAuthentication authentication, @Nullable List<String> entries) {
    return problems(role, authentication, entries, loginHandlerOnClasspath());
  }

  /** {@link #problems}, told whether the login handler is on the classpath (tests). */
  static List<String> problems(
      KafkaClientRole role,
      KafkaAuthentication authentication,
      @Nullable List<String> entries,
      boolean loginHandlerOnClasspath) {
    List<String> problems = new ArrayList<>();
    Map<String, String> properties = parseProperties(role, entries, problems);
    Map<String, Object> security = securityProperties(authentication);
    for (String key : properties.keySet()) {
      String instead = role.reserved().get(key);
      if (instead != null) {
        problems.add(
            "--" + role.flag() + "=" + key + "=... is set by the pipeline: drop it; " + instead);
      } else if (security.containsKey(key)) {
        problems.add(
            "--"
                + role.flag()
                + "="
                + key
                + "=... conflicts with --kafkaAuthentication="
                + authentication
                + ", which sets it: drop it, or use --kafkaAuthentication=NONE and give every"
                + " security property yourself");
      }
    }
    if (authentication == KafkaAuthentication.GOOGLE_OAUTH && !loginHandlerOnClasspath) {
      problems.add(
          "--kafkaAuthentication=GOOGLE_OAUTH needs "
              + GCP_LOGIN_CALLBACK_HANDLER
              + " on the classpath: add "
              + LOGIN_HANDLER_ARTIFACT
              + " to the pipeline's jar, or use --kafkaAuthentication=NONE");
    }
    return problems;
  }

  /**
   * The client's settings: the security properties of {@code authentication}, then the user's
   * properties. For {@code KafkaIO}'s {@code with{Producer,Consumer}ConfigUpdates}; the bootstrap
   * servers, (de)serializers and consumer group are given to KafkaIO separately.
   *
   * @throws IllegalArgumentException if {@link #problems} finds any
   */
  public static Map<String, Object> clientProperties(
      KafkaClientRole role, KafkaAuthentication authentication, @Nullable List<String> entries) {
    List<String> problems = problems(role, authentication, entries);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(
          "Invalid Kafka client settings:\n  - " + String.join("\n  - ", problems));
    }
    Map<String, Object> all = new LinkedHashMap<>(securityProperties(authentication));
    all.putAll(parseProperties(role, entries, new ArrayList<>()));
    return Collections.unmodifiableMap(all);
  }

  /**
   * The given properties this kind of client does not know (a typo, or a setting of a plugin):
   * Kafka only logs them, so a pipeline should warn at launch.
   */
  public static List<String> unknownProperties(
      KafkaClientRole role, @Nullable List<String> entries) {
    List<String> unknown = new ArrayList<>();
    for (String key : parseProperties(role, entries, new ArrayList<>()).keySet()) {
      if (!role.knownProperties().contains(key)) {
        unknown.add(key);
      }
    }
    return unknown;
  }

  /**
   * Problems with {@code --kafkaBootstrapServers}: missing, or not a comma-separated list of
   * host:port.
   *
   * @param why what needs the servers, for the message (for example "--sink=KAFKA")
   */
  public static List<String> bootstrapServersProblems(@Nullable String servers, String why) {
    if (servers == null || servers.isBlank()) {
      return List.of(
          "--kafkaBootstrapServers is required with "
              + why
              + ": set it to the brokers' host:port list, for example"
              + " bootstrap.CLUSTER.REGION.managedkafka.PROJECT.cloud.goog:9092");
    }
    List<String> problems = new ArrayList<>();
    for (String server : servers.split(",", -1)) {
      String s = server.trim();
      if (!SERVER.matcher(s).matches() || !validPort(s)) {
        problems.add(
            "--kafkaBootstrapServers="
                + servers
                + " has '"
                + s
                + "', which is not host:port: give comma-separated host:port pairs, for example"
                + " broker-1:9092,broker-2:9092");
      }
    }
    return problems;
  }

  /**
   * Problems with one topic name given in {@code flag} (without {@code --}): missing, or not a name
   * Kafka accepts (1-249 of letters, digits, {@code . _ -}; not {@code .} or {@code ..}).
   */
  public static List<String> topicProblems(String flag, @Nullable String topic, String why) {
    if (topic == null || topic.isBlank()) {
      return List.of("--" + flag + " is required with " + why + ": set it to the topic's name");
    }
    if (!TOPIC.matcher(topic).matches() || topic.equals(".") || topic.equals("..")) {
      return List.of(
          "--"
              + flag
              + "="
              + topic
              + " is not a Kafka topic name: use 1-249 letters, digits, '.', '_' or '-' (not '.'"
              + " or '..')");
    }
    return List.of();
  }

  private static boolean validPort(String server) {
    int port = Integer.parseInt(server.substring(server.lastIndexOf(':') + 1));
    return port >= 1 && port <= 65535;
  }

  /** Whether Kafka will find the handler: it loads plugin classes with the context loader. */
  private static boolean loginHandlerOnClasspath() {
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    for (ClassLoader loader :
        new ClassLoader[] {context, KafkaClientConfig.class.getClassLoader()}) {
      if (loader == null) {
        continue;
      }
      try {
        Class.forName(GCP_LOGIN_CALLBACK_HANDLER, false, loader);
        return true;
      } catch (ClassNotFoundException | LinkageError e) {
        // try the next loader
      }
    }
    return false;
  }
}
