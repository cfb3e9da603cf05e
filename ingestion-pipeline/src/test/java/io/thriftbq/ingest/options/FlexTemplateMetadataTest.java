package io.thriftbq.ingest.options;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.thriftbq.ingest.template.IngestionTemplate;
import io.thriftbq.schema.ThriftSchemaOptions;
import java.beans.Introspector;
import java.io.File;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.Validation;
import org.junit.BeforeClass;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

/**
 * The flex template metadata ({@code src/main/flex-template/metadata.json}) agrees with {@link
 * IngestionOptions}: every option a user can set is a parameter with the same name, label and help
 * text, the same requiredness, the same enum values and the same default.
 */
@RunWith(JUnit4.class)
public class FlexTemplateMetadataTest {

  private static final Set<String> STREAMING_MODES = Set.of("EXACTLY_ONCE", "AT_LEAST_ONCE");

  private static JsonNode metadata;
  private static Map<String, JsonNode> parameters;
  private static Map<String, Method> options;

  @BeforeClass
  public static void load() throws Exception {
    File file =
        new File(System.getProperty("basedir", "."), "src/main/flex-template/metadata.json");
    assertTrue("missing " + file.getAbsolutePath(), file.isFile());
    metadata = new ObjectMapper().readTree(file);
    parameters = new LinkedHashMap<>();
    for (JsonNode p : metadata.path("parameters")) {
      String name = p.path("name").asText();
      assertTrue("parameter listed twice: " + name, parameters.put(name, p) == null);
    }
    options = new LinkedHashMap<>();
    // The options the interface declares and the shared IDL options it extends.
    for (Class<?> declaring :
        List.of(
            IngestionOptions.class,
            KafkaSourceOptions.class,
            io.thriftbq.kafka.KafkaConnectionOptions.class,
            MetadataOptions.class,
            ChangeCaptureOptions.class,
            ThriftSchemaOptions.class)) {
      for (Method m : declaring.getDeclaredMethods()) {
        if (m.isAnnotationPresent(Description.class) && propertyName(m) != null) {
          options.put(propertyName(m), m);
        }
      }
    }
    // Beam's own options that the tuning steps set: template parameters too.
    for (Method redeclared : IngestionTemplate.BeamTuningParameters.class.getDeclaredMethods()) {
      String beam = propertyName(redeclared);
      options.put(beam, getter(beam));
    }
  }

  private static String propertyName(Method m) {
    if (m.getParameterCount() != 0) {
      return null;
    }
    String n = m.getName();
    if (n.startsWith("get") && n.length() > 3) {
      return Introspector.decapitalize(n.substring(3));
    }
    if (n.startsWith("is") && n.length() > 2) {
      return Introspector.decapitalize(n.substring(2));
    }
    return null;
  }

  private static Method getter(String property) {
    String suffix = Character.toUpperCase(property.charAt(0)) + property.substring(1);
    for (String prefix : List.of("get", "is")) {
      try {
        return IngestionOptions.class.getMethod(prefix + suffix);
      } catch (NoSuchMethodException e) {
        // try the next prefix
      }
    }
    throw new AssertionError("IngestionOptions has no option " + property);
  }

  @Test
  public void templateLevelFieldsAreSet() {
    assertFalse(metadata.path("name").asText().isBlank());
    assertFalse(metadata.path("description").asText().isBlank());
    assertTrue("streaming", metadata.path("streaming").asBoolean(false));
    assertTrue("supportsAtLeastOnce", metadata.path("supportsAtLeastOnce").asBoolean(false));
    assertTrue("supportsExactlyOnce", metadata.path("supportsExactlyOnce").asBoolean(false));
    assertTrue(
        "defaultStreamingMode",
        STREAMING_MODES.contains(metadata.path("defaultStreamingMode").asText()));
  }

  @Test
  public void everyOptionIsAParameter() {
    Set<String> missing = new TreeSet<>(options.keySet());
    missing.removeAll(parameters.keySet());
    assertEquals("options missing from metadata.json", Set.of(), missing);
  }

  @Test
  public void everyParameterIsAnOption() {
    Set<String> unknown = new TreeSet<>(parameters.keySet());
    unknown.removeAll(options.keySet());
    assertEquals("metadata.json parameters that are not options", Set.of(), unknown);
  }

  @Test
  public void noOptionIsLocalModeOnly() {
    for (String name : options.keySet()) {
      assertFalse(name + " is an emulator option", name.toLowerCase().contains("emulator"));
    }
  }

  @Test
  public void everyParameterHasLabelAndHelpText() {
    for (JsonNode p : parameters.values()) {
      assertFalse(p + " has no label", p.path("label").asText().isBlank());
      assertFalse(p + " has no helpText", p.path("helpText").asText().isBlank());
    }
  }

  @Test
  public void requirednessMatches() {
    for (Map.Entry<String, Method> e : options.entrySet()) {
      boolean required = e.getValue().isAnnotationPresent(Validation.Required.class);
      boolean optional = parameters.get(e.getKey()).path("isOptional").asBoolean(false);
      assertEquals(e.getKey() + " isOptional", !required, optional);
    }
  }

  @Test
  public void enumsListExactlyTheirValues() {
    for (Map.Entry<String, Method> e : options.entrySet()) {
      JsonNode p = parameters.get(e.getKey());
      Class<?> type = e.getValue().getReturnType();
      if (type.isEnum()) {
        assertEquals(e.getKey() + " paramType", "ENUM", p.path("paramType").asText());
        List<String> expected = new ArrayList<>();
        for (Object c : type.getEnumConstants()) {
          expected.add(((Enum<?>) c).name());
        }
        List<String> actual = new ArrayList<>();
        for (JsonNode o : p.path("enumOptions")) {
          actual.add(o.path("value").asText());
        }
        assertEquals(e.getKey() + " enumOptions", expected, actual);
      } else {
        assertTrue(e.getKey() + " is not an enum", p.path("enumOptions").isMissingNode());
        assertFalse(e.getKey() + " is not an enum", "ENUM".equals(p.path("paramType").asText()));
      }
    }
  }

  @Test
  public void paramTypesMatchJavaTypes() {
    for (Map.Entry<String, Method> e : options.entrySet()) {
      String paramType = parameters.get(e.getKey()).path("paramType").asText();
      Class<?> type = e.getValue().getReturnType();
      if (type == Boolean.class || type == boolean.class) {
        assertEquals(e.getKey(), "BOOLEAN", paramType);
      } else if (Number.class.isAssignableFrom(type) || type.isPrimitive()) {
        assertEquals(e.getKey(), "NUMBER", paramType);
      } else if (!type.isEnum()) {
        assertTrue(
            e.getKey() + " has paramType " + paramType,
            Arrays.asList("TEXT", "PUBSUB_TOPIC", "PUBSUB_SUBSCRIPTION", "BIGQUERY_TABLE")
                .contains(paramType));
      }
    }
  }

  @Test
  public void defaultsMatchTheOptions() {
    for (Map.Entry<String, Method> e : options.entrySet()) {
      String expected = defaultOf(e.getValue());
      JsonNode p = parameters.get(e.getKey());
      String actual = p.has("defaultValue") ? p.get("defaultValue").asText() : null;
      assertEquals(e.getKey() + " defaultValue", expected, actual);
    }
  }

  @Test
  public void defaultsMatchTheirRegexes() {
    for (JsonNode p : parameters.values()) {
      if (!p.has("defaultValue")) {
        continue;
      }
      for (JsonNode regex : p.path("regexes")) {
        assertTrue(
            p.path("name").asText() + " default does not match " + regex.asText(),
            Pattern.compile(regex.asText()).matcher(p.get("defaultValue").asText()).matches());
      }
    }
  }

  private static String defaultOf(Method m) {
    if (m.isAnnotationPresent(Default.String.class)) {
      return m.getAnnotation(Default.String.class).value();
    }
    if (m.isAnnotationPresent(Default.Enum.class)) {
      return m.getAnnotation(Default.Enum.class).value();
    }
    if (m.isAnnotationPresent(Default.Integer.class)) {
      return String.valueOf(m.getAnnotation(Default.Integer.class).value());
    }
    if (m.isAnnotationPresent(Default.Long.class)) {
      return String.valueOf(m.getAnnotation(Default.Long.class).value());
    }
    if (m.isAnnotationPresent(Default.Boolean.class)) {
      return String.valueOf(m.getAnnotation(Default.Boolean.class).value());
    }
    if (m.isAnnotationPresent(Default.Double.class)) {
      return String.valueOf(m.getAnnotation(Default.Double.class).value());
    }
    if (m.isAnnotationPresent(Default.InstanceFactory.class)) {
      fail(m.getName() + " has a computed default; give the metadata no defaultValue and adapt");
    }
    return null;
  }
}
