package io.thriftbq.local.stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The local Kafka broker's {@code server.properties} and log4j2 configuration: one node that is
 * both broker and KRaft controller, listening on 127.0.0.1 only, sized for a laptop.
 */
final class KafkaConfigFiles {
  /** The largest record batch the broker takes: 10 MB of payload plus headers and framing. */
  public static final int MAX_MESSAGE_BYTES = 11 * 1024 * 1024;

  private KafkaConfigFiles() {}

  static void write(
      Path serverProperties, Path loggingConfig, int port, int controllerPort, Path dataDir)
      throws IOException {
    Files.writeString(
        serverProperties,
        "# Written by io.thriftbq.local.stack.KafkaBroker for one local run.\n"
            + serverProperties(port, controllerPort, dataDir).entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n", "", "\n")));
    Files.writeString(loggingConfig, LOGGING);
  }

  /** In the order they are written; values as Kafka reads them. */
  static Map<String, String> serverProperties(int port, int controllerPort, Path dataDir) {
    String controller = FreePorts.LOOPBACK + ":" + controllerPort;
    Map<String, String> p = new LinkedHashMap<>();
    p.put("process.roles", "broker,controller");
    p.put("node.id", "1");
    // Both listeners bound to the loopback address: nothing off this machine can connect.
    p.put(
        "listeners",
        "PLAINTEXT://" + FreePorts.LOOPBACK + ":" + port + ",CONTROLLER://" + controller);
    p.put("advertised.listeners", "PLAINTEXT://" + FreePorts.LOOPBACK + ":" + port);
    p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    p.put("controller.listener.names", "CONTROLLER");
    p.put("inter.broker.listener.name", "PLAINTEXT");
    p.put("controller.quorum.bootstrap.servers", controller);
    p.put("log.dirs", dataDir.toAbsolutePath().toString());
    // A run creates its topics with the partitions it wants; a misspelt topic must fail, not
    // silently become a new one.
    p.put("auto.create.topics.enable", "false");
    // One node: every internal topic has one replica, and one partition is plenty (50 would cost
    // start-up time and files for nothing).
    p.put("offsets.topic.replication.factor", "1");
    p.put("offsets.topic.num.partitions", "1");
    p.put("transaction.state.log.replication.factor", "1");
    p.put("transaction.state.log.min.isr", "1");
    p.put("transaction.state.log.num.partitions", "1");
    p.put("share.coordinator.state.topic.replication.factor", "1");
    p.put("share.coordinator.state.topic.min.isr", "1");
    p.put("share.coordinator.state.topic.num.partitions", "1");
    // Pub/Sub takes messages up to 10 MB, and the hostile-input runs send payloads up to 9 MB:
    // the same messages must fit through Kafka (default limit about 1 MB).
    p.put("message.max.bytes", Integer.toString(MAX_MESSAGE_BYTES));
    // A consumer group's first (and only) member gets its partitions at once, not after 3 s.
    p.put("group.initial.rebalance.delay.ms", "0");
    // 2 shared cores: the defaults (3 network, 8 I/O threads) only add context switches.
    p.put("num.network.threads", "2");
    p.put("num.io.threads", "2");
    // After a SIGKILL the restarted controller refuses the broker's registration until the old
    // session expires (9 s by default); 4 s keeps restarts quick while a busy machine's pauses
    // still do not fence the only broker.
    p.put("broker.heartbeat.interval.ms", "1000");
    p.put("broker.session.timeout.ms", "4000");
    return p;
  }

  /**
   * To standard output, which {@link ManagedProcess} writes to the broker's log file. The broker's
   * start-up dumps every configuration it builds at INFO (thousands of lines); those are in {@code
   * server.properties} already.
   */
  static final String LOGGING =
      String.join(
          "\n",
          "status = warn",
          "appender.stdout.type = Console",
          "appender.stdout.name = STDOUT",
          "appender.stdout.layout.type = PatternLayout",
          "appender.stdout.layout.pattern = [%d] %p %m (%c)%n",
          "rootLogger.level = INFO",
          "rootLogger.appenderRef.stdout.ref = STDOUT",
          "logger.config.name = org.apache.kafka.common.config.AbstractConfig",
          "logger.config.level = WARN",
          "logger.request.name = kafka.request.logger",
          "logger.request.level = WARN",
          "");
}
