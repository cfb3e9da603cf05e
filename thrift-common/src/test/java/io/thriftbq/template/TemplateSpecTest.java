package io.thriftbq.template;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import io.thriftbq.template.TemplateParameter.EnumLabel;
import io.thriftbq.template.TemplateParameter.ParamType;
import java.util.List;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.StreamingOptions;
import org.junit.Test;

/** How a template's parameters are ordered, typed and checked from their getters' annotations. */
public class TemplateSpecTest {
  /** Options two templates share: they name no group, each template places them. */
  public interface SharedOptions extends PipelineOptions {
    @Description("Second shared.")
    @TemplateParameter(label = "Shared two", order = 20)
    String getSharedTwo();

    void setSharedTwo(String value);

    @Description("First shared.")
    @TemplateParameter(label = "Shared one", order = 10)
    String getSharedOne();

    void setSharedOne(String value);
  }

  public enum Mode {
    FAST,
    SAFE
  }

  public interface Options extends SharedOptions, StreamingOptions {
    @Description("Late in group A.")
    @TemplateParameter(label = "Late", group = "A", order = 30)
    Integer getLate();

    void setLate(Integer value);

    @Description("In group B.")
    @TemplateParameter(
        label = "Mode",
        group = "B",
        order = 10,
        enumLabels = {
          @EnumLabel(value = "FAST", label = "Fast"),
          @EnumLabel(value = "SAFE", label = "Safe")
        })
    Mode getMode();

    void setMode(Mode value);

    @Description("Early in group A.")
    @TemplateParameter(
        label = "Early",
        group = "A",
        order = 10,
        type = ParamType.PUBSUB_TOPIC,
        pattern = "^x$")
    String getEarly();

    void setEarly(String value);
  }

  /** Redeclares Beam's --streaming to carry its console details. */
  public interface BeamParameters extends StreamingOptions {
    @Override
    @TemplateParameter(label = "Streaming", group = "B", order = 20)
    boolean isStreaming();
  }

  public interface Unannotated extends PipelineOptions {
    @Description("No console details.")
    String getPlain();

    void setPlain(String value);
  }

  public interface SamePlace extends PipelineOptions {
    @Description("One.")
    @TemplateParameter(label = "One", group = "A", order = 10)
    String getOne();

    void setOne(String value);

    @Description("Two.")
    @TemplateParameter(label = "Two", group = "A", order = 10)
    String getTwo();

    void setTwo(String value);
  }

  private static final TemplateSpec SPEC =
      TemplateSpec.of("name", "description", Options.class, List.of("A", "B"))
          .placing(SharedOptions.class, "A", 20)
          .withInheritedParameters(BeamParameters.class);

  @Test
  public void ordersByGroupThenOrderWithPlacedOptionsAtTheirPlace() {
    assertEquals(
        List.of("early", "sharedOne", "sharedTwo", "late", "mode", "streaming"),
        SPEC.options().stream().map(OptionDoc::name).toList());
    assertEquals(
        List.of("A", "A", "A", "A", "B", "B"),
        SPEC.parameters().stream().map(TemplateSpec.Parameter::group).toList());
  }

  @Test
  public void typeFollowsTheJavaTypeUnlessTheGetterNamesOne() {
    assertEquals(
        List.of(
            ParamType.PUBSUB_TOPIC,
            ParamType.TEXT,
            ParamType.TEXT,
            ParamType.NUMBER,
            ParamType.ENUM,
            ParamType.BOOLEAN),
        SPEC.parameters().stream().map(TemplateSpec.Parameter::type).toList());
  }

  @Test
  public void rendersLabelsPatternsAndInheritedHelp() {
    String json = FlexTemplateMetadata.render(SPEC);
    assertThat(json, containsString("\"regexes\": [\n        \"^x$\"\n      ]"));
    assertThat(
        json, containsString("{\n          \"value\": \"SAFE\",\n          \"label\": \"Safe\""));
    // --streaming's help is Beam's own @Description.
    assertThat(
        json, containsString("\"label\": \"Streaming\",\n      \"helpText\": \"Set to true"));
  }

  @Test
  public void anOptionWithoutConsoleDetailsIsRefused() {
    TemplateSpec spec = TemplateSpec.of("n", "d", Unannotated.class, List.of("A"));
    assertThat(
        assertThrows(IllegalArgumentException.class, spec::parameters).getMessage(),
        containsString("--plain of Unannotated is not a template parameter"));
  }

  @Test
  public void anUnplacedSharedInterfaceIsRefused() {
    TemplateSpec spec = TemplateSpec.of("n", "d", Options.class, List.of("A", "B"));
    assertThat(
        assertThrows(IllegalArgumentException.class, spec::parameters).getMessage(),
        containsString("SharedOptions is not placed"));
  }

  @Test
  public void anUnknownGroupIsRefused() {
    TemplateSpec spec =
        TemplateSpec.of("n", "d", Options.class, List.of("A"))
            .placing(SharedOptions.class, "A", 20);
    assertThat(
        assertThrows(IllegalArgumentException.class, spec::parameters).getMessage(),
        containsString("--mode is in group 'B', not one of [A]"));
  }

  @Test
  public void twoParametersInOnePlaceAreRefused() {
    TemplateSpec spec = TemplateSpec.of("n", "d", SamePlace.class, List.of("A"));
    assertThat(
        assertThrows(IllegalArgumentException.class, spec::parameters).getMessage(),
        containsString("take the same place in group A"));
  }
}
