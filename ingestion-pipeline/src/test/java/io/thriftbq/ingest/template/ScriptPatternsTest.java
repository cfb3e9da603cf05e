package io.thriftbq.ingest.template;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.thriftbq.template.GeneratedText;
import io.thriftbq.template.ParameterPatterns;
import io.thriftbq.template.PubsubNames;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryHelpers;
import org.junit.Test;

/**
 * The scripts' copy of the validation rules is generated from the Java constants, and both read the
 * shared edge cases (scripts/test/pattern-cases.tsv, which patterns.bats runs through bash) alike.
 * Run {@code scripts/generate-docs.sh} after changing a rule.
 */
public class ScriptPatternsTest {
  private static final Path REPO = Path.of(System.getProperty("basedir", ".")).resolve("..");

  /** The Java side of each rule of pattern-cases.tsv. */
  private static final Map<String, Predicate<String>> RULES =
      Map.of(
          "thrift-struct", matching(ParameterPatterns.IDL_TYPE),
          "thrift-structs", matching(ParameterPatterns.IDL_TYPES),
          "table-for-struct-entry", matching(ParameterPatterns.TABLE_FOR_STRUCT_ENTRY),
          "pubsub-attribute-key", PubsubNames::isAttributeKey);

  private static Predicate<String> matching(String regex) {
    Pattern pattern = Pattern.compile(regex);
    return value -> pattern.matcher(value).matches();
  }

  @Test
  public void scriptPatternsAreGeneratedFromTheJavaRules() throws Exception {
    assertNull(
        GeneratedText.checkFile(
            REPO.resolve("scripts/lib/patterns.generated.sh"), ScriptPatterns.render()));
  }

  @Test
  public void javaDecidesEverySharedCaseAsExpected() throws Exception {
    List<String> wrong = new ArrayList<>();
    int cases = 0;
    for (String line :
        Files.readAllLines(
            REPO.resolve("scripts/test/pattern-cases.tsv"), StandardCharsets.UTF_8)) {
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] cols = line.split("\t", -1);
      String value = cols.length > 3 ? cols[2].repeat(Integer.parseInt(cols[3])) : cols[2];
      boolean accepted = RULES.get(cols[0]).test(value);
      cases++;
      if (accepted != cols[1].equals("accept")) {
        wrong.add(line);
      }
    }
    assertEquals("cases Java decides otherwise than pattern-cases.tsv says", List.of(), wrong);
    assertTrue("pattern-cases.tsv has cases", cases > 50);
  }

  /** No check before the launch may refuse a table the pipeline takes (Beam's parser decides). */
  @Test
  public void tableSpecAcceptsEveryTableBeamParses() {
    List<String> specs =
        List.of(
            "ds.t",
            "my-project:shop.orders",
            "my-project.shop.orders",
            "example.com:my-project:shop.orders",
            "example.com:my-project.shop.orders",
            "shop.orders$20240101",
            "shop.order lines",
            "shop.tábla",
            "my-ds.orders",
            "my.ds.orders",
            "my-project:ds.t@-3600000");
    for (String spec : specs) {
      BigQueryHelpers.parseTableSpec(spec); // throws if Beam refuses it: then the case is wrong
      assertTrue(spec, Pattern.matches(ParameterPatterns.BIGQUERY_TABLE_SPEC, spec));
      assertTrue(spec, Pattern.matches(ParameterPatterns.TABLE_FOR_STRUCT_ENTRY, "Order=" + spec));
    }
    assertTrue(Pattern.matches(ParameterPatterns.BIGQUERY_TABLE_SPEC, "p:ds.events_{struct}"));
    assertTrue(Pattern.matches(ParameterPatterns.TABLE_FOR_STRUCT, "Order=p.ds.o , Refund=ds.r$1"));
  }

  @Test
  public void aPatternBashReadsOtherwiseIsRefused() {
    for (String pattern :
        List.of(
            "^\\w+$",
            "^(?:a|b)$",
            "^[^a]{1,3}$",
            "^a+?$",
            "^a*+$",
            "^a.b$",
            "^[a\\-z]$",
            "^[[:alpha:]]$",
            "^it's$",
            "^[a-z$")) {
      IllegalArgumentException e =
          assertThrows(
              pattern,
              IllegalArgumentException.class,
              () -> ScriptPatterns.checkPortable("P", pattern));
      assertThat(e.getMessage(), containsString("P = " + pattern));
    }
    ScriptPatterns.checkPortable("P", "^[A-Za-z_]x[^,=]+(\\.[A-Za-z0-9_$-]{1,9})?( *, *b|c)*$");
  }
}
