package io.thriftbq.local;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThan;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.thriftbq.codec.EventEnvelope;
import io.thriftbq.local.source.MalformedMessages;
import io.thriftbq.local.stack.FreePorts;
import io.thriftbq.local.stack.LoopbackHttp;
import io.thriftbq.local.stack.ManagedProcess;
import io.thriftbq.local.stack.QueryRows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

/** The pieces of local mode that need no emulator. */
@RunWith(JUnit4.class)
public class SupportTest {
  @Test
  public void malformedMessagesCoverEveryKindDeterministically() {
    List<MalformedMessages.Malformed> first =
        MalformedMessages.create(8, 3, seq -> new byte[] {11, 0, 1, 0, 0, 0, 2, 'h', 'i', 0});
    List<MalformedMessages.Malformed> second =
        MalformedMessages.create(8, 3, seq -> new byte[] {11, 0, 1, 0, 0, 0, 2, 'h', 'i', 0});
    Set<MalformedMessages.Kind> kinds = EnumSet.noneOf(MalformedMessages.Kind.class);
    for (int i = 0; i < first.size(); i++) {
      MalformedMessages.Malformed bad = first.get(i);
      kinds.add(bad.kind());
      assertEquals("bad-" + i, bad.id());
      assertEquals(bad.id(), bad.message().attributes().get(MalformedMessages.ID_ATTRIBUTE));
      assertTrue(java.util.Arrays.equals(bad.message().data(), second.get(i).message().data()));
      assertThat(bad.message().data().length, greaterThan(0));
      assertEquals(
          bad.kind() == MalformedMessages.Kind.CORRUPT_ENVELOPE,
          EventEnvelope.isEnvelope(bad.message().attributes()));
    }
    // A single-type run mixes in every kind but the many-types routing ones (ManyTypesMalformed's).
    assertEquals(EnumSet.copyOf(MalformedMessages.Kind.COMMON), kinds);
  }

  @Test
  public void queryRowsNestRecordsAndArrays() throws Exception {
    JsonNode fields =
        LoopbackHttp.JSON.readTree(
            "[{\"name\":\"id\",\"type\":\"INTEGER\"},"
                + "{\"name\":\"tags\",\"type\":\"STRING\",\"mode\":\"REPEATED\"},"
                + "{\"name\":\"s\",\"type\":\"RECORD\",\"fields\":[{\"name\":\"x\",\"type\":\"FLOAT\"}]},"
                + "{\"name\":\"kv\",\"type\":\"RECORD\",\"mode\":\"REPEATED\",\"fields\":"
                + "[{\"name\":\"key\",\"type\":\"STRING\"},{\"name\":\"value\",\"type\":\"STRING\"}]},"
                + "{\"name\":\"n\",\"type\":\"STRING\"}]");
    JsonNode row =
        LoopbackHttp.JSON.readTree(
            "{\"f\":[{\"v\":\"7\"},{\"v\":[{\"v\":\"a\"},{\"v\":\"b\"}]},"
                + "{\"v\":{\"f\":[{\"v\":\"1.5\"}]}},"
                + "{\"v\":[{\"v\":{\"f\":[{\"v\":\"event_id\"},{\"v\":\"42\"}]}}]},{\"v\":null}]}");
    ObjectNode object = QueryRows.toObject(fields, row);
    assertEquals(
        "{\"id\":\"7\",\"tags\":[\"a\",\"b\"],\"s\":{\"x\":\"1.5\"},"
            + "\"kv\":[{\"key\":\"event_id\",\"value\":\"42\"}],\"n\":null}",
        object.toString());
    assertEquals("42", QueryRows.attribute(object.path("kv"), "event_id"));
  }

  @Test
  public void freePortsAreOnLoopbackAndDistinct() {
    int a = FreePorts.pick();
    int b = FreePorts.pick();
    assertThat(a, greaterThan(0));
    assertNotEquals(a, b);
    assertFalse(FreePorts.isListening(a));
  }

  /** gcloud's emulator is a process tree; stopping must reach the grandchildren too. */
  @Test
  public void managedProcessStopsTheWholeTree() throws Exception {
    Path log = Files.createTempFile("managed", ".log");
    ManagedProcess process =
        ManagedProcess.start(
            "tree",
            List.of("bash", "-c", "sleep 300 & sleep 300 & echo started; wait"),
            java.util.Map.of(),
            log);
    List<ProcessHandle> children = new ArrayList<>();
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (children.size() < 2 && System.nanoTime() < deadline) {
      children.clear();
      ProcessHandle.of(process.pid()).ifPresent(h -> h.descendants().forEach(children::add));
      Thread.sleep(50);
    }
    assertEquals(2, children.size());
    process.stop(Duration.ofSeconds(5));
    assertFalse(process.isAlive());
    for (ProcessHandle child : children) {
      child.onExit().get(5, java.util.concurrent.TimeUnit.SECONDS);
      assertFalse(child.isAlive());
    }
    Files.deleteIfExists(log);
  }
}
