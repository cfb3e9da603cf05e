package io.thriftbq.local.stack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Turns BigQuery's REST row encoding ({@code {"f":[{"v":...}]}} with a separate schema) into plain
 * JSON objects: RECORD columns become objects, REPEATED columns arrays, leaves keep BigQuery's
 * string encoding (INT64 as a decimal string, TIMESTAMP as seconds since the epoch, BYTES as
 * base64).
 */
public final class QueryRows {
  private QueryRows() {}

  public static ObjectNode toObject(JsonNode schemaFields, JsonNode row) {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    JsonNode cells = row.path("f");
    for (int i = 0; i < schemaFields.size(); i++) {
      JsonNode field = schemaFields.get(i);
      JsonNode cell = i < cells.size() ? cells.get(i).path("v") : null;
      out.set(field.path("name").asText(), value(field, cell));
    }
    return out;
  }

  private static JsonNode value(JsonNode field, JsonNode cell) {
    if (cell == null || cell.isNull() || cell.isMissingNode()) {
      return JsonNodeFactory.instance.nullNode();
    }
    if ("REPEATED".equals(field.path("mode").asText())) {
      ArrayNode array = JsonNodeFactory.instance.arrayNode();
      for (JsonNode element : cell) {
        array.add(single(field, element.path("v")));
      }
      return array;
    }
    return single(field, cell);
  }

  private static JsonNode single(JsonNode field, JsonNode cell) {
    if (cell == null || cell.isNull() || cell.isMissingNode()) {
      return JsonNodeFactory.instance.nullNode();
    }
    String type = field.path("type").asText();
    if ("RECORD".equals(type) || "STRUCT".equals(type)) {
      return toObject(field.path("fields"), cell);
    }
    return cell;
  }

  /** The value of {@code key} in a {@code [{key, value}, ...]} column of such a row, or null. */
  public static String attribute(JsonNode attributes, String key) {
    for (JsonNode entry : attributes) {
      if (key.equals(entry.path("key").asText())) {
        return entry.path("value").asText();
      }
    }
    return null;
  }
}
