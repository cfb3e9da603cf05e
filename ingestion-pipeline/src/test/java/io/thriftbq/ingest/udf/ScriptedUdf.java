package io.thriftbq.ingest.udf;

import io.thriftbq.sample.Device;
import io.thriftbq.sample.Event;
import io.thriftbq.sample.Platform;
import java.util.Locale;
import org.apache.thrift.TBase;

/** A user function whose behaviour is chosen by the event id's prefix, to exercise each outcome. */
public class ScriptedUdf implements EventTransform {
  @Override
  public TBase<?, ?> apply(TBase<?, ?> input) {
    Event event = (Event) input;
    String id = event.getEvent_id();
    if (id.startsWith("drop")) {
      return null;
    }
    if (id.startsWith("throw")) {
      throw new IllegalStateException("the user function refused " + id);
    }
    if (id.startsWith("wrong")) {
      return new Device(Platform.WEB);
    }
    if (id.startsWith("clear")) {
      event.unsetEvent_type();
      return event;
    }
    event.setUser_id(event.getUser_id().toUpperCase(Locale.ROOT));
    return event;
  }
}
