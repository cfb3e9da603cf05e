package io.thriftbq.change;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.Test;

public class ChangeSpecTest {

  private static ChangeSpec parse(String key, String type, String sequence, List<String> problems) {
    return ChangeSpec.parse(key, type, sequence, null, null, problems);
  }

  @Test
  public void oneKeyForEveryStructWithDefaults() {
    List<String> problems = new ArrayList<>();
    ChangeSpec spec = parse("tenant, order_id", null, null, problems);
    assertEquals(List.of(), problems);
    assertEquals(List.of("tenant", "order_id"), spec.keyOf("Order"));
    assertEquals(new ChangeSpec.ChangeTypeSource.AllUpserts(), spec.changeType());
    assertEquals(new ChangeSpec.SequenceSource.None(), spec.sequence());
    assertEquals(ChangeSpec.DEFAULT_UPSERT_VALUES, spec.upsertValues());
    assertEquals(ChangeSpec.DEFAULT_DELETE_VALUES, spec.deleteValues());
  }

  @Test
  public void keysPerStructAndSources() {
    List<String> problems = new ArrayList<>();
    ChangeSpec spec =
        parse("Order=order_id;Refund=refund_id,tenant", "field:op", "field:version", problems);
    assertEquals(List.of(), problems);
    assertEquals(List.of("order_id"), spec.keyOf("Order"));
    assertEquals(List.of("refund_id", "tenant"), spec.keyOf("Refund"));
    assertEquals(List.of(), spec.keyOf("Click"));
    assertEquals("op", spec.changeTypeField());
    assertEquals("version", spec.sequenceField());
    assertEquals(
        new ChangeSpec.ChangeTypeSource.Attribute("op"),
        parse("id", "header:op", "KAFKA_OFFSET", problems).changeType());
    assertEquals(
        new ChangeSpec.SequenceSource.PublishTime(),
        parse("id", "attribute:op", "publish_time", problems).sequence());
    assertEquals(List.of(), problems);
  }

  @Test
  public void everyProblemNamesItsFlag() {
    List<String> problems = new ArrayList<>();
    StringBuilder seventeen = new StringBuilder("c0");
    for (int i = 1; i < 17; i++) {
      seventeen.append(",c").append(i);
    }
    assertNull(parse(seventeen.toString(), "maybe", "LAMPORT", problems));
    assertThat(problems, hasItem(containsString("at most 16")));
    assertThat(problems, hasItem(containsString("--changeType=maybe")));
    assertThat(problems, hasItem(containsString("--changeSequence=LAMPORT")));

    problems.clear();
    assertNull(parse("session.session_id", "field:", null, problems));
    assertThat(problems, hasItem(containsString("top-level columns only")));
    assertThat(problems, hasItem(containsString("--changeType names no field")));

    problems.clear();
    assertNull(parse("id,id", null, null, problems));
    assertThat(problems, hasItem(containsString("names column id twice")));

    problems.clear();
    assertNull(parse("id;Order=order_id", null, null, problems));
    assertThat(problems, hasItem(containsString("mixes a key for every struct")));

    problems.clear();
    assertNull(ChangeSpec.parse("id", "field:op", null, List.of("D"), List.of("D"), problems));
    assertThat(problems, hasItem(containsString("both name D")));
  }

  @Test
  public void valueListsReplaceTheDefaults() {
    List<String> problems = new ArrayList<>();
    ChangeSpec spec =
        ChangeSpec.parse("id", "field:op", null, List.of("c", "u", "r"), List.of("d"), problems);
    assertNotNull(spec);
    assertEquals(Set.of("c", "u", "r"), spec.upsertValues());
    assertEquals(Set.of("d"), spec.deleteValues());
  }
}
