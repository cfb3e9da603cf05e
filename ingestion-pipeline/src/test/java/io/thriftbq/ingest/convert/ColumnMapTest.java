package io.thriftbq.ingest.convert;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import com.google.api.client.json.gson.GsonFactory;
import com.google.api.services.bigquery.model.TableRow;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.io.gcp.bigquery.TableRowJsonCoder;
import org.apache.beam.sdk.util.CoderUtils;
import org.junit.Test;

public class ColumnMapTest {
  private static final String[] NAMES = {"a", "b", "c", "d"};

  private static ColumnMap columns() {
    return new ColumnMap(NAMES, new Object[] {1L, null, List.of(), "x"}, NAMES.length);
  }

  @Test
  public void absentAndEmptyRepeatedColumnsAreNotEntries() {
    ColumnMap columns = columns();
    assertEquals(Map.of("a", 1L, "d", "x"), new HashMap<>(columns));
    assertEquals(2, columns.size());
    assertFalse(columns.containsKey("b"));
    assertFalse(columns.containsKey("c"));
    assertNull(columns.get("c"));
  }

  @Test
  public void behavesAsAMapWhenChanged() {
    ColumnMap columns = columns();
    assertEquals("x", columns.put("d", "y"));
    assertNull(columns.put("b", 2L));
    assertNull(columns.put("e", "new"));
    assertEquals(Map.of("a", 1L, "b", 2L, "d", "y", "e", "new"), new HashMap<>(columns));
    assertEquals(1L, columns.remove("a"));
    assertEquals(3, columns.size());
    Iterator<Map.Entry<String, Object>> entries = columns.entrySet().iterator();
    entries.next().setValue(5L);
    assertEquals(5L, columns.get("b"));
    entries.next();
    entries.remove();
    assertEquals(Map.of("b", 5L, "e", "new"), new HashMap<>(columns));
    // The shared name array was not written through.
    assertEquals(List.of("a", "b", "c", "d"), List.of(NAMES));
  }

  @Test
  public void tableRowsBackedByItCloneEncodeAndCompare() throws Exception {
    TableRow row = new TableRow();
    row.setUnknownKeys(columns());
    TableRow expected = new TableRow().set("a", 1L).set("d", "x");
    assertEquals(expected, row);
    assertEquals(expected, row.clone());
    TableRow decoded = CoderUtils.clone(TableRowJsonCoder.of(), row);
    assertEquals(1, ((Number) decoded.get("a")).intValue());
    assertEquals("x", decoded.get("d"));
    assertEquals(2, decoded.size());
    // What the streaming-inserts client sends: google-http-client's JSON of the row.
    String json = GsonFactory.getDefaultInstance().toString(row);
    assertTrue(json, json.contains("\"d\":\"x\"") && json.contains("\"a\":"));
  }
}
