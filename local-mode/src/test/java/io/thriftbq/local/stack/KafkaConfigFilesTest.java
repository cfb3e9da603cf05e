package io.thriftbq.local.stack;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import io.thriftbq.local.config.SourceKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class KafkaConfigFilesTest {
  @Rule public TemporaryFolder folder = new TemporaryFolder();

  @Test
  public void oneNodeOnLoopbackWithItsDataInTheRunsFolder() throws Exception {
    Path dir = folder.getRoot().toPath();
    Path data = dir.resolve("data");
    KafkaConfigFiles.write(
        dir.resolve("server.properties"), dir.resolve("log4j2.properties"), 9092, 9093, data);
    Properties p = new Properties();
    try (var in = Files.newBufferedReader(dir.resolve("server.properties"))) {
      p.load(in);
    }
    assertEquals("PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093", p.get("listeners"));
    assertEquals("PLAINTEXT://127.0.0.1:9092", p.get("advertised.listeners"));
    assertEquals("127.0.0.1:9093", p.get("controller.quorum.bootstrap.servers"));
    assertEquals("broker,controller", p.get("process.roles"));
    assertEquals(data.toAbsolutePath().toString(), p.get("log.dirs"));
    assertEquals("0", p.get("group.initial.rebalance.delay.ms"));
    assertEquals("false", p.get("auto.create.topics.enable"));
    assertTrue(
        "Pub/Sub's 10 MB messages fit",
        Integer.parseInt((String) p.get("message.max.bytes")) > 10 * 1000 * 1000);
    for (String replication :
        new String[] {
          "offsets.topic.replication.factor",
          "transaction.state.log.replication.factor",
          "share.coordinator.state.topic.replication.factor"
        }) {
      assertEquals(replication, "1", p.get(replication));
    }
    assertEquals(
        "the session outlives the heartbeat several times over",
        4,
        Integer.parseInt((String) p.get("broker.session.timeout.ms"))
            / Integer.parseInt((String) p.get("broker.heartbeat.interval.ms")));
    String logging = Files.readString(dir.resolve("log4j2.properties"));
    assertThat(logging, containsString("appender.stdout.type = Console"));
    assertThat(logging, not(containsString("File")));
  }

  @Test
  public void everyListenerIsOnLoopback() {
    Map<String, String> p = KafkaConfigFiles.serverProperties(1, 2, Path.of("d"));
    for (String listener : p.get("listeners").split(",")) {
      assertThat(listener, containsString("://127.0.0.1:"));
    }
  }

  @Test
  public void clusterIdsAreKafkasFormat() {
    String id = KafkaBroker.randomClusterId();
    assertEquals(22, id.length());
    assertThat(id, not(containsString("=")));
    assertThat(id, not(containsString("+")));
    assertThat(id, not(containsString("/")));
  }

  @Test
  public void noClusterIdStartsWithADashThatTheFormatToolWouldReadAsAnOption() {
    // One random id in 64 would start with '-' (a failed CI run, 2026-11-27); 10,000 draws make
    // missing the rule all but certain to show.
    for (int i = 0; i < 10_000; i++) {
      String id = KafkaBroker.randomClusterId();
      assertNotEquals(id, '-', id.charAt(0));
    }
  }

  @Test
  public void kafkaRunsDoNotNeedGcloud() {
    String saved = System.getProperty(LocalPaths.REPO_ROOT_PROPERTY);
    System.setProperty(LocalPaths.REPO_ROOT_PROPERTY, folder.getRoot().toString());
    try {
      String kafka = LocalPaths.missingPrerequisites(SourceKind.KAFKA);
      assertThat(kafka, not(containsString("gcloud")));
      assertThat(kafka, not(containsString("Pub/Sub")));
      if (System.getenv("KAFKA_BROKER_LIBS") == null) {
        assertThat(kafka, containsString("The Kafka broker's jars are not built"));
        assertThat(kafka, containsString("./mvnw -DskipTests -pl local-mode -am package"));
      }
    } finally {
      if (saved == null) {
        System.clearProperty(LocalPaths.REPO_ROOT_PROPERTY);
      } else {
        System.setProperty(LocalPaths.REPO_ROOT_PROPERTY, saved);
      }
    }
  }
}
